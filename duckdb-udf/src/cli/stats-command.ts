import { countNoun, renderStatistics } from '../../../core/index.ts';
import { sragCommandLine } from '../quote-shell-argument.ts';
import { readTableStats } from '../read-table-stats.ts';
import { SragStore } from '../store/srag-store.ts';

/** `srag stats`: the table's schema, Appendix-D statistics and ingestion log counts. */
export async function statsCommand(options: { db: string; table?: string; json?: boolean }): Promise<number> {
  const store = await SragStore.open(options.db, { mustExist: true });
  try {
    const stats = await readTableStats(store.connection, options.table, options.db);
    if (options.json) {
      const { schema, ...json } = stats;
      process.stdout.write(`${JSON.stringify(json)}\n`);
      return 0;
    }
    const columns = stats.schema.attributes.map((attribute) => `  ${attribute.name} (${attribute.kind}${attribute.unit ? `, ${attribute.unit}` : ''})`);
    process.stdout.write([
      `table ${stats.table} (${stats.schema.title}) in ${options.db}: ${countNoun(stats.rows, 'row')}${stats.rowsWithoutValues ? ` (${stats.rowsWithoutValues} with no values: the documents state none of the attributes, or the schema does not fit them)` : ''}; ${stats.parent
        ? `items ("${stats.parent.entity}") of the documents of ${stats.parent.table}, joined on _source (the ingestion log is ${stats.parent.table}'s)`
        : `${stats.sragExtract ? `made from srag_extract; the log of its schema (${stats.sragExtract.schemaKey}, every document scanned with it)` : 'log'}: ${Object.entries(stats.log).map(([status, count]) => `${count} ${status}`).join(', ') || 'empty'}`}`,
      'columns:',
      ...columns,
      ...(stats.children?.length ? ['entities:', ...stats.children.map((child) => `  ${child.entity}: ${countNoun(child.rows, 'item')} in table ${child.table} (${sragCommandLine(['stats', '--table', child.table], options.db)})`)] : []),
      'statistics:',
      renderStatistics(stats.statistics),
      '',
    ].join('\n'));
    return 0;
  } finally {
    store.close();
  }
}

