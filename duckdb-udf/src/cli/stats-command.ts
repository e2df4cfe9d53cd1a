import { countNoun, renderStatistics } from '../../../core/index.ts';
import { readTableStats } from '../read-table-stats.ts';
import { SragStore } from '../store/srag-store.ts';

/** `srag stats`: the table's schema, Appendix-D statistics and ingestion log counts. */
export async function statsCommand(options: { db: string; table?: string; json?: boolean }): Promise<number> {
  const store = await SragStore.open(options.db, { mustExist: true });
  try {
    const stats = await readTableStats(store, store.connection, options.table);
    if (options.json) {
      const { schema, ...json } = stats;
      process.stdout.write(`${JSON.stringify(json)}\n`);
      return 0;
    }
    const columns = stats.schema.attributes.map((attribute) => `  ${attribute.name} (${attribute.kind}${attribute.unit ? `, ${attribute.unit}` : ''})`);
    process.stdout.write([
      `table ${stats.table} (${stats.schema.title}) in ${options.db}: ${countNoun(stats.rows, 'row')}${stats.rowsWithoutValues ? ` (${stats.rowsWithoutValues} with no values: the documents state none of the attributes, or the schema does not fit them)` : ''}; log: ${Object.entries(stats.log).map(([status, count]) => `${count} ${status}`).join(', ') || 'empty'}`,
      'columns:',
      ...columns,
      'statistics:',
      renderStatistics(stats.statistics),
      '',
    ].join('\n'));
    return 0;
  } finally {
    store.close();
  }
}

