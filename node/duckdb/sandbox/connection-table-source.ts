import { listValue } from '../duckdb-node-api.ts';
import type { DuckDBConnection } from '@duckdb/node-api';
import { SragError } from '../../../core/index.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import { evidenceExportSql, sandboxExportOptions, type SandboxTableSource } from './sandbox-table-source.ts';

/**
 * The tables of the database behind `connection`, exported with `COPY … TO` (Parquet). Exports run
 * one at a time: the connection is shared with the store, and DuckDB runs one statement per
 * connection at once anyway.
 */
export function connectionTableSource(connection: DuckDBConnection): SandboxTableSource {
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next;
  };
  return {
    describeTable: (table) => serialized(async () => {
      const rows = (await connection.runAndReadAll(
        `SELECT column_name, data_type FROM duckdb_columns()
         WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1 ORDER BY column_index`,
        [table],
      )).getRowsJS();
      if (rows.length === 0) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `no table "${table}" in the database` });
      return { columns: rows.map(([name, type]) => ({ name: String(name), type: String(type) })) };
    }),
    exportTable: (table, columns, file) => serialized(async () => {
      await connection.run(`COPY (SELECT ${columns.map(quoteIdentifier).join(', ')} FROM ${quoteIdentifier(table)}) TO $1 (${sandboxExportOptions})`, [file]);
    }),
    exportEvidence: (table, attributes, file) => serialized(async () => {
      await connection.run(`COPY (${evidenceExportSql}) TO $3 (${sandboxExportOptions})`, [table, listValue(attributes), file]);
    }),
  };
}
