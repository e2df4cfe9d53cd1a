import type { DuckDBConnection } from '@duckdb/node-api';
import type { TableExporter } from '../../../app/index.ts';
import { listValue } from '../duckdb-node-api.ts';
import { quoteIdentifier } from '../quote-identifier.ts';
import { copyEvidenceExportSql, evidenceExportSql, sandboxExportOptions } from './sandbox-table-source.ts';

/**
 * Writes what a question's sandbox reads over `connection`, with `COPY … TO` (Parquet): a table's
 * columns, and the evidence kept under a name (keyed to a copy's rows by content hash when it is
 * `srag_extract`'s rows copied). One export at a time: DuckDB runs one statement per connection.
 */
export function connectionTableExporter(connection: DuckDBConnection): TableExporter {
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = (work: () => Promise<unknown>): Promise<void> => {
    const next = queue.then(work);
    queue = next.catch(() => undefined);
    return next.then(() => undefined);
  };
  return {
    exportTable: (table, columns, file) => serialized(() =>
      connection.run(`COPY (SELECT ${columns.map(quoteIdentifier).join(', ')} FROM ${quoteIdentifier(table)}) TO $1 (${sandboxExportOptions})`, [file])),
    exportEvidence: (evidence, attributes, file) => serialized(() => (evidence.copyOf
      ? connection.run(`COPY (${copyEvidenceExportSql}) TO $3 (${sandboxExportOptions})`, [evidence.name, listValue(attributes), file, evidence.copyOf])
      : connection.run(`COPY (${evidenceExportSql}) TO $3 (${sandboxExportOptions})`, [evidence.name, listValue(attributes), file]))),
  };
}
