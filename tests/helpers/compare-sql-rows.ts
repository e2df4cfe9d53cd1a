import type { SqlValue } from '../../core/index.ts';

/** Numbers agree when they differ only in the last bits of a double (summation order). */
function sameValue(left: SqlValue, right: SqlValue): boolean {
  if (typeof left === 'number' && typeof right === 'number') {
    return left === right || Math.abs(left - right) <= 1e-9 * Math.max(1, Math.abs(left), Math.abs(right));
  }
  return left === right;
}

function rowKey(row: SqlValue[]): string {
  return JSON.stringify(row.map((value) => (typeof value === 'number' ? Number(value.toPrecision(12)) : value)));
}

/**
 * Whether two query results hold the same rows. Without ORDER BY the row order is unspecified in
 * DuckDB, so rows are compared as a multiset; with ORDER BY, in order.
 */
export function sameRows(left: SqlValue[][], right: SqlValue[][], ordered: boolean): boolean {
  if (left.length !== right.length) return false;
  const [a, b] = ordered ? [left, right] : [[...left].sort((x, y) => rowKey(x).localeCompare(rowKey(y))), [...right].sort((x, y) => rowKey(x).localeCompare(rowKey(y)))];
  return a.every((row, index) => row.length === b[index]!.length && row.every((value, column) => sameValue(value, b[index]![column]!)));
}

/** A top-level ORDER BY (not one inside a subquery) makes the row order part of the answer. */
export function hasTopLevelOrderBy(sql: string): boolean {
  let depth = 0;
  const text = sql.replace(/'(?:[^']|'')*'/g, "''");
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '(') depth += 1;
    else if (character === ')') depth -= 1;
    else if (depth === 0 && /^order\s+by\b/i.test(text.slice(index))) return true;
  }
  return false;
}
