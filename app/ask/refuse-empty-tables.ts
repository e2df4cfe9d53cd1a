import { SragError } from '../../core/index.ts';
import type { RecordTable } from '../tables/record-table.ts';

/**
 * A question over a table without a row is refused before any model call: SQL over it would
 * answer 0 or NULL — a count of nothing passing for a fact — after paying for the query. A table is
 * empty when its statistics say so (every column counts the table's rows); a table whose
 * statistics are not known yet is let through.
 */
export function refuseEmptyTables(tables: readonly RecordTable[]): void {
  const empty = tables.filter((table) => table.statistics.length > 0 && table.statistics.every((column) => column.rowCount === 0));
  if (empty.length === 0) return;
  const names = empty.map((table) => table.name);
  const one = names.length === 1;
  throw new SragError({
    code: 'NO_DOCUMENTS',
    message: `${one ? 'table' : 'tables'} ${names.join(', ')} ${one ? 'has' : 'have'} no rows to answer from`,
    hint: empty.every((table) => table.madeBy === 'srag import')
      ? `import ${one ? 'it' : 'them'} again from a file with rows`
      : `none of ${one ? 'its' : 'their'} documents has a record yet (they failed, or were never extracted): extract them again, retrying the failed ones, then ask; the ingestion log says why each one failed`,
  });
}
