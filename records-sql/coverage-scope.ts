import type { SelectStatement } from './syntax/sql-syntax.ts';

/** What coverage is counted over for one statement (core's `CoverageSource`), as this engine reads it. */
export interface CoverageScope {
  /** Lower-cased names the statement reads outside its WHERE, or `'all'` for a `*`. */
  columns: Set<string> | 'all';
  /** Lower-cased names the top-level WHERE reads (empty when the selection is not derivable). */
  filterColumns: Set<string>;
  /**
   * `SELECT "_source"` with the statement's FROM and WHERE: the rows its filters keep, before
   * grouping, HAVING, ORDER BY and LIMIT. Undefined when it is not one SELECT straight over `table`.
   */
  selection: SelectStatement | undefined;
}

/** Reads the coverage scope of a parsed statement over `table` (see `CoverageScope`). */
export function readCoverageScope(statement: SelectStatement, table: string): CoverageScope {
  const body = statement.body;
  const derivable = statement.with.length === 0 && body.type === 'select' && body.from?.type === 'table' && body.from.name === table.toLowerCase();
  if (!derivable) return { columns: columnsOf(statement), filterColumns: new Set(), selection: undefined };
  const filterColumns = new Set<string>();
  if (body.where) collect(body.where, filterColumns);
  return {
    columns: columnsOf({ ...statement, body: { ...body, where: undefined } }),
    filterColumns,
    selection: {
      with: [],
      body: { type: 'select', distinct: false, items: [{ type: 'expression', expression: { type: 'column', name: '_source' }, text: '_source' }], from: body.from, where: body.where },
      orderBy: [],
    },
  };
}

function columnsOf(statement: SelectStatement): Set<string> | 'all' {
  const names = new Set<string>();
  return collect(statement, names) ? 'all' : names;
}

/** Adds every column name under `node` to `into`; true when a `*` reads every column. */
function collect(node: unknown, into: Set<string>): boolean {
  if (Array.isArray(node)) return node.reduce((all: boolean, element) => collect(element, into) || all, false);
  if (typeof node !== 'object' || node === null) return false;
  const record = node as { type?: unknown; name?: unknown; star?: unknown };
  let all = record.type === 'star';
  if (record.type === 'column' && typeof record.name === 'string') into.add(record.name.toLowerCase());
  for (const value of Object.values(node)) all = collect(value, into) || all;
  return all;
}
