import type { SqlValue } from '../../../core/index.ts';

export type Cell = string | number | boolean;

/** More rows than this are cut, with a last row saying how many were left out. */
const maximumRows = 500;

/**
 * An answer as =SRAG_ASK's cells: a single value, "(no rows)", or a table with its header row
 * that spills; the query (when shown) in the column after the first row, and the coverage note,
 * when there is one, after the query.
 */
export function answerCells(columns: string[], rows: SqlValue[][], sql: string | undefined, coverageNote?: string): Cell[][] {
  const extra = sql === undefined ? [] : coverageNote ? [sql, coverageNote] : [sql];
  const withQuery = (cells: Cell[][]) => cells.map((row, index) => [...row, ...extra.map((text) => (index === 0 ? text : ''))]);
  if (rows.length === 0) return withQuery([['(no rows)']]);
  if (rows.length === 1 && columns.length === 1) return withQuery([[cell(rows[0]![0]!)]]);
  const shown = rows.slice(0, maximumRows).map((row) => row.map(cell));
  if (rows.length > maximumRows) shown.push([`… ${rows.length - maximumRows} more rows`, ...columns.slice(1).map(() => '')]);
  return withQuery([columns, ...shown]);
}

function cell(value: SqlValue): Cell {
  return value === null ? '' : value;
}
