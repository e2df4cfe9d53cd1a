import { DuckDBPendingResultState, LIST, listValue, VARCHAR, type DuckDBInstance, type DuckDBPreparedStatement } from '@duckdb/node-api';
import { firstLine, SragError } from '../../../core/index.ts';
import { copyEvidenceExportSql, evidenceExportSql, sandboxExportOptions } from '../sandbox/sandbox-table-source.ts';

/** Writes columns of a table to Parquet and returns only when the file is complete: usable inside a DuckDB callback. */
export interface SynchronousTableExport {
  exportTable(table: string, columns: string[], file: string): void;
  /**
   * The evidence behind coverage (`SandboxTableSource.exportEvidence`); `table` is its name in
   * `srag_evidence`, `copy` a table copied from `srag_extract` whose rows it is keyed to (see `copyEvidenceExportSql`).
   */
  exportEvidence(table: string, attributes: string[], file: string, copy?: string): void;
  close(): void;
}

/** How long the waiting thread sleeps when DuckDB's own threads hold every task of the export. */
const idleWaitMilliseconds = 1;

/**
 * The export `srag_ask` needs while the thread that owns the database is blocked in its callback.
 * `@duckdb/node-api` runs statements asynchronously, and this thread cannot wait for a promise; but
 * a prepared statement can be executed synchronously, task by task (`start()` + `runTask()`, the
 * C API's pending result). So the statement is prepared beforehand, on a connection of its own,
 * with the table, the columns and the file as parameters, and run to completion inside the
 * callback. A COPY has written and closed its file once its last task has run; its result (a row
 * count) is never fetched, and the next export discards it. The export reads committed data: a
 * table made in the caller's still-open transaction is not visible to it.
 */
export async function createSynchronousTableExport(instance: DuckDBInstance): Promise<SynchronousTableExport> {
  const connection = await instance.connect();
  let statement: DuckDBPreparedStatement;
  let evidenceStatement: DuckDBPreparedStatement;
  let copyEvidenceStatement: DuckDBPreparedStatement;
  try {
    statement = await connection.prepare(
      `COPY (SELECT COLUMNS(lambda srag_column: list_contains($2::VARCHAR[], srag_column)) FROM query_table($1::VARCHAR)) TO $3 (${sandboxExportOptions})`,
    );
    evidenceStatement = await connection.prepare(`COPY (${evidenceExportSql}) TO $3 (${sandboxExportOptions})`);
    copyEvidenceStatement = await connection.prepare(`COPY (${copyEvidenceExportSql}) TO $3 (${sandboxExportOptions})`);
  } catch (error) {
    connection.closeSync();
    throw error;
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const run = (prepared: DuckDBPreparedStatement, name: string, names: string[], file: string, copy?: string) => {
    prepared.bindVarchar(1, name);
    prepared.bindList(2, listValue(names), LIST(VARCHAR));
    prepared.bindVarchar(3, file);
    if (copy !== undefined) prepared.bindVarchar(4, copy);
    const pending = prepared.start();
    for (let state = pending.runTask(); state !== DuckDBPendingResultState.RESULT_READY; state = pending.runTask()) {
      if (state === DuckDBPendingResultState.NO_TASKS_AVAILABLE) Atomics.wait(pause, 0, 0, idleWaitMilliseconds);
    }
  };
  return {
    exportEvidence(table, attributes, file, copy) {
      try {
        if (copy === undefined) run(evidenceStatement, table, attributes, file);
        else run(copyEvidenceStatement, table, attributes, file, copy);
      } catch (error) {
        throw new SragError({ code: 'SQL_FAILED', message: `srag_ask could not read the evidence of "${table}": ${firstLine(error instanceof Error ? error.message : String(error))}`, cause: error });
      }
    },
    exportTable(table, columns, file) {
      try {
        run(statement, table, columns, file);
      } catch (error) {
        const message = firstLine((error instanceof Error ? error.message : String(error)).replace(/^Failure running pending result task: /, ''));
        throw new SragError({
          code: /Table with name .* does not exist/.test(message) ? 'TABLE_NOT_FOUND' : 'SQL_FAILED',
          message: `srag_ask could not read table "${table}": ${message}`,
          hint: /does not exist/.test(message) ? 'srag_ask reads committed tables: COMMIT the transaction that made it first' : undefined,
          cause: error,
        });
      }
    },
    close() {
      statement.destroySync();
      evidenceStatement.destroySync();
      copyEvidenceStatement.destroySync();
      connection.closeSync();
    },
  };
}
