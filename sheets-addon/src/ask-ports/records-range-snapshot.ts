import type { TableSnapshot } from '../../../app/index.ts';
import { computeStatistics, recordSchemaToJsonSchema } from '../../../core/index.ts';
import type { RecordsRangeTable } from '../custom-functions/records-range-table.ts';

/**
 * `readTables` for =SRAG_ASK: the records range is the one table there is, registered under
 * `table` with its columns as attributes and the statistics of its rows (core's
 * `computeStatistics`, as the DuckDB store keeps them), so `ask` reads it as a table `srag ingest`
 * made. There are no imports, links or value mentions: with one table nothing is chosen.
 */
export function recordsRangeSnapshot(records: RecordsRangeTable, table: string): TableSnapshot {
  return {
    tables: [{ name: table, columns: records.table.columns }],
    knownSchemas: [{
      name: table,
      schemaJson: JSON.stringify(recordSchemaToJsonSchema(records.schema)),
      statisticsJson: JSON.stringify(computeStatistics(records.schema, records.rows)),
      origin: 'srag_tables',
    }],
    imports: [],
    links: [],
    mentions: [],
  };
}
