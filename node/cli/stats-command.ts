import { countNoun } from '../../core/index.ts';
import { sragCommandLine } from '../runtime/quote-shell-argument.ts';
import { readTableStats } from '../duckdb/read-table-stats.ts';
import { SragStore } from '../duckdb/store/srag-store.ts';
import { renderStatisticsForTerminal } from './render-statistics-for-terminal.ts';

/** `srag stats`: the table's schema, Appendix-D statistics and ingestion log counts, and the response cache's replies per endpoint. */
export async function statsCommand(options: { db: string; table?: string; json?: boolean }): Promise<number> {
  const store = await SragStore.open(options.db, { mustExist: true });
  try {
    const stats = await readTableStats(store.connection, options.table, options.db);
    const cache = await store.cachedRepliesByEndpoint();
    if (options.json) {
      const { schema, ...json } = stats;
      process.stdout.write(`${JSON.stringify({ ...json, response_cache: cache })}\n`);
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
      renderStatisticsForTerminal(stats.statistics),
      describeCache(cache),
      '',
    ].join('\n'));
    return 0;
  } finally {
    store.close();
  }
}


/**
 * The response cache per endpoint, e.g. `response cache: 120 replies from https://api.openai.com/v1,
 * 40 from http://127.0.0.1:4000/v1`. A reply is served only to the endpoint that gave it; those an
 * older srag kept name none and are served only when no endpoint is configured.
 */
function describeCache(cache: Array<{ endpoint: string | null; replies: number }>): string {
  if (cache.length === 0) return 'response cache: empty';
  const parts = cache.map(({ endpoint, replies }, index) => {
    const count = index === 0 ? countNoun(replies, 'reply', 'replies') : String(replies);
    return endpoint === null ? `${count} from an older srag (endpoint not recorded: served only with no endpoint configured)` : `${count} from ${endpoint}`;
  });
  return `response cache (each reply served only to the endpoint that gave it): ${parts.join(', ')}`;
}
