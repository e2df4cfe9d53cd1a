import { countNoun, renderStatistics } from '../../../core/index.ts';
import { quoteIdentifier } from '../duckdb-sql-engine.ts';
import { SragStore } from '../store/srag-store.ts';

/** `srag stats`: the table's schema, Appendix-D statistics and ingestion log counts. */
export async function statsCommand(options: { db: string; table?: string; json?: boolean }): Promise<number> {
  const store = await SragStore.open(options.db, { mustExist: true });
  try {
    const info = await store.tableInfo(options.table);
    const allNull = info.schema.attributes.map((attribute) => `${quoteIdentifier(attribute.name)} IS NULL`).join(' AND ') || 'false';
    const [rowCount, withoutValues] = ((await store.connection.runAndReadAll(`SELECT count(*), count(*) FILTER (WHERE ${allNull}) FROM ${quoteIdentifier(info.table)}`)).getRowsJS()[0] ?? [0, 0]).map(Number) as [number, number];
    const log = (await store.connection.runAndReadAll(
      'SELECT status, count(*) FROM srag_ingestion_log WHERE table_name = $1 GROUP BY status ORDER BY status', [info.table])).getRowsJS();
    if (options.json) {
      process.stdout.write(`${JSON.stringify({ table: info.table, rows: rowCount, rowsWithoutValues: withoutValues, log: Object.fromEntries(log.map(([status, count]) => [status, Number(count)])), statistics: info.statistics })}\n`);
      return 0;
    }
    const columns = info.schema.attributes.map((attribute) => `  ${attribute.name} (${attribute.kind}${attribute.unit ? `, ${attribute.unit}` : ''})`);
    process.stdout.write([
      `table ${info.table} (${info.schema.title}) in ${options.db}: ${countNoun(rowCount, 'row')}${withoutValues ? ` (${withoutValues} with no values: the documents state none of the attributes, or the schema does not fit them)` : ''}; log: ${log.map(([status, count]) => `${count} ${status}`).join(', ') || 'empty'}`,
      'columns:',
      ...columns,
      'statistics:',
      renderStatistics(info.statistics),
      '',
    ].join('\n'));
    return 0;
  } finally {
    store.close();
  }
}
