import { DuckDBPendingResultState, LIST, listValue, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import type { DuckDBInstance, DuckDBPreparedStatement } from '@duckdb/node-api';
import { firstLine, SragError } from '../../../core/index.ts';
import type { CallerRequest } from '../llm-bridge/bridge-protocol.ts';
import { copyEvidenceExportSql, evidenceExportSql, sandboxExportOptions } from '../../duckdb/sandbox/sandbox-table-source.ts';
import { relativeSourceSql } from '../../duckdb/store/adopt-relative-sources.ts';
import { extractRecordTableName, extractSchemaName } from '../../duckdb/store/extract-record-table.ts';
import { quoteIdentifier } from '../../duckdb/quote-identifier.ts';

/** Writes columns of a table to Parquet and returns only when the file is complete: usable inside a DuckDB callback. */
export interface SynchronousTableExport {
  exportTable(table: string, columns: string[], file: string): void;
  /**
   * The evidence behind coverage (`SandboxTableSource.exportEvidence`); `table` is its name in
   * `srag_evidence`, `copy` a table copied from `srag_extract` whose rows it is keyed to (see `copyEvidenceExportSql`).
   */
  exportEvidence(table: string, attributes: string[], file: string, copy?: string): void;
  /**
   * The ingestion log of a schema `srag_extract` was called with, for `sources` only (null: all of
   * it), as JSON lines (`ingestionLogLineSql`): what the bridge needs of the database when a scan starts.
   */
  exportIngestionLog(schemaKey: string, sources: readonly string[] | null, file: string): void;
  /** The schema's documents with a record other than `sources`, as JSON lines of `source` and `content_hash` (see `logOutsideSql`). */
  exportLogOutside(schemaKey: string, sources: readonly string[], file: string): void;
  close(): void;
}

/** What the bridge worker asks of the thread blocked in a DuckDB callback, done through `tableExport`. */
export function answerCallerRequests(tableExport: SynchronousTableExport): (request: CallerRequest) => void {
  return (request) => {
    switch (request.type) {
      case 'export-table':
        return tableExport.exportTable(request.table, request.columns, request.file);
      case 'export-evidence':
        return tableExport.exportEvidence(request.table, request.attributes, request.file, request.copy);
      case 'export-log':
        return tableExport.exportIngestionLog(request.schemaKey, request.sources, request.file);
      case 'export-log-outside':
        return tableExport.exportLogOutside(request.schemaKey, request.sources, request.file);
    }
  };
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
 * count) is fetched afterwards, off this thread (see `runToEnd`). The export reads committed data: a
 * table made in the caller's still-open transaction is not visible to it.
 */
export async function createSynchronousTableExport(instance: DuckDBInstance): Promise<SynchronousTableExport> {
  const connection = await instance.connect();
  let statement: DuckDBPreparedStatement;
  let evidenceStatement: DuckDBPreparedStatement;
  let copyEvidenceStatement: DuckDBPreparedStatement;
  let logStatement: DuckDBPreparedStatement;
  let logOnlyStatement: DuckDBPreparedStatement;
  let wholeLogStatement: DuckDBPreparedStatement;
  let wholeLogOnlyStatement: DuckDBPreparedStatement;
  let outsideStatement: DuckDBPreparedStatement;
  try {
    statement = await connection.prepare(
      `COPY (SELECT COLUMNS(lambda srag_column: list_contains($2::VARCHAR[], srag_column)) FROM query_table($1::VARCHAR)) TO $3 (${sandboxExportOptions})`,
    );
    evidenceStatement = await connection.prepare(`COPY (${evidenceExportSql}) TO $3 (${sandboxExportOptions})`);
    copyEvidenceStatement = await connection.prepare(`COPY (${copyEvidenceExportSql}) TO $3 (${sandboxExportOptions})`);
    logStatement = await connection.prepare(`COPY (${ingestionLogLineSql(true)}) TO $3 (FORMAT json)`);
    logOnlyStatement = await connection.prepare(`COPY (${ingestionLogLineSql(false)}) TO $3 (FORMAT json)`);
    wholeLogStatement = await connection.prepare(`COPY (${ingestionLogLineSql(true, true)}) TO $2 (FORMAT json)`);
    wholeLogOnlyStatement = await connection.prepare(`COPY (${ingestionLogLineSql(false, true)}) TO $2 (FORMAT json)`);
    outsideStatement = await connection.prepare(`COPY (${logOutsideSql}) TO $3 (FORMAT json)`);
  } catch (error) {
    connection.closeSync();
    throw error;
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const runToEnd = (prepared: DuckDBPreparedStatement) => {
    const pending = prepared.start();
    for (let state = pending.runTask(); state !== DuckDBPendingResultState.RESULT_READY; state = pending.runTask()) {
      if (state === DuckDBPendingResultState.NO_TASKS_AVAILABLE) Atomics.wait(pause, 0, 0, idleWaitMilliseconds);
    }
    // The result (a row count) is fetched on a thread of libuv's pool, not awaited: this thread
    // cannot wait for a promise. Unfetched, the query stayed open with its transaction and the
    // snapshot it read, and DuckDB could not clean up what was committed after it: no checkpoint
    // could run, not even at close (after a rename moved 5,000 records, a 15 MB write-ahead log
    // stayed behind and was replayed at every open). The next export discards it if it comes first.
    void pending.getResult().catch(() => undefined);
  };
  const run = (prepared: DuckDBPreparedStatement, name: string, names: string[], file: string, copy?: string) => {
    prepared.bindVarchar(1, name);
    prepared.bindList(2, listValue(names), LIST(VARCHAR));
    prepared.bindVarchar(3, file);
    if (copy !== undefined) prepared.bindVarchar(4, copy);
    runToEnd(prepared);
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
    exportIngestionLog(schemaKey, sources, file) {
      // Parameters in order: the key, the sources (unless the whole log), the file, the record table (with records).
      const runLog = (prepared: DuckDBPreparedStatement, withRecords: boolean) => {
        const values = [schemaKey, ...sources === null ? [] : [JSON.stringify(sources)], file];
        if (withRecords) values.push(`${quoteIdentifier(extractSchemaName)}.${quoteIdentifier(extractRecordTableName(schemaKey))}`);
        values.forEach((value, index) => prepared.bindVarchar(index + 1, value));
        runToEnd(prepared);
      };
      try {
        try {
          runLog(sources === null ? wholeLogStatement : logStatement, true);
        } catch (error) {
          // A log kept by a version of srag that kept no record table: its `done` entries are extracted again.
          if (!/Table with name .* does not exist/.test(error instanceof Error ? error.message : String(error))) throw error;
          runLog(sources === null ? wholeLogOnlyStatement : logOnlyStatement, false);
        }
      } catch (error) {
        throw new SragError({ code: 'STORE_FAILED', message: `srag_extract could not read its ingestion log: ${firstLine(error instanceof Error ? error.message : String(error))}`, cause: error });
      }
    },
    exportLogOutside(schemaKey, sources, file) {
      try {
        outsideStatement.bindVarchar(1, schemaKey);
        outsideStatement.bindVarchar(2, JSON.stringify(sources));
        outsideStatement.bindVarchar(3, file);
        runToEnd(outsideStatement);
      } catch (error) {
        throw new SragError({ code: 'STORE_FAILED', message: `srag_extract could not read its ingestion log: ${firstLine(error instanceof Error ? error.message : String(error))}`, cause: error });
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
      logStatement.destroySync();
      logOnlyStatement.destroySync();
      wholeLogStatement.destroySync();
      wholeLogOnlyStatement.destroySync();
      outsideStatement.destroySync();
      connection.closeSync();
    },
  };
}

/**
 * One JSON line per entry of the ingestion log of schema key `$1` for the sources of `$2` (a JSON
 * array): `source`, `content_hash`, `status`, `error`, and `record`, the row of record table `$4`
 * the entry is about (null when it has none, or `withRecords` is false), internal columns included.
 * The sources travel as one JSON text, unnested by DuckDB: one statement however many. `whole`:
 * every entry of the key, with no `$2` (the record table is then `$3`).
 */
export function ingestionLogLineSql(withRecords: boolean, whole = false): string {
  const entries = `SELECT source, content_hash, status, error FROM srag_ingestion_log
    WHERE table_name = $1::VARCHAR${whole ? '' : ` AND source IN (SELECT unnest(from_json($2::VARCHAR, '["VARCHAR"]')))`}`;
  return withRecords
    // An unmatched row is a struct of NULLs, not NULL: the record is NULL where no row matched.
    ? `SELECT l.source, l.content_hash, l.status, l.error, CASE WHEN r."_source" IS NULL THEN NULL ELSE r END AS record FROM (${entries}) l
       LEFT JOIN query_table(${whole ? '$3' : '$4'}::VARCHAR) r ON r."_source" = l.source AND r."_content_hash" = l.content_hash`
    : `SELECT source, content_hash, status, error, NULL AS record FROM (${entries})`;
}

/**
 * `source` and `content_hash` of each `done` entry of schema key `$1` whose source is not among
 * `$2` (a JSON array) and is a path (a text given without a file name, `text:<hash>`, cannot
 * move). An anti-join over the names cast from JSON, as `srag ingest` finds its gone documents.
 */
export const logOutsideSql = `SELECT source, content_hash FROM srag_ingestion_log
  ANTI JOIN (SELECT unnest(CAST($2::VARCHAR AS JSON)::VARCHAR[]) AS given) ON source = given
  WHERE table_name = $1::VARCHAR AND status = 'done' AND NOT (${relativeSourceSql})`;
