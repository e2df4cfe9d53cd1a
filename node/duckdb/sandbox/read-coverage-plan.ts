import { readSelectReferences } from './read-select-references.ts';

/** What coverage is counted over for one statement (see `CoverageSource`). */
export interface CoveragePlan {
  /** Lower-cased names the statement reads outside its WHERE, or `'all'` (a `*`, or doubt). */
  columns: Set<string> | 'all';
  /** Lower-cased names the top-level WHERE reads: counted over the whole table. */
  filterColumns: Set<string>;
  /**
   * The statement that selects `"_source"` of the rows the WHERE keeps, serialized for
   * `json_deserialize_sql`; undefined when those rows cannot be derived from the statement alone
   * (a set operation, a CTE, a subquery or join in FROM, another table).
   */
  selection: unknown;
}

type Node = Record<string, unknown>;

/**
 * Reads a plan from one statement of `json_serialize_sql` (as DuckDB parsed it). The rows an
 * answer rests on are derivable when the statement is one SELECT straight over `table`: they are
 * the rows its WHERE keeps, before grouping, HAVING, ORDER BY and LIMIT (a LIMIT 1 "which hotel is
 * cheapest" still compares every row the WHERE keeps). The selection is the same statement with its
 * select list replaced by `"_source"` and everything after the WHERE removed.
 */
export function readCoveragePlan(serialized: { statements: Array<{ node: unknown }> }, table: string): CoveragePlan {
  const statement = serialized.statements[0]!;
  const node = statement.node as Node;
  const from = node.from_table as Node | undefined;
  const ctes = (node.cte_map as { map?: unknown[] } | undefined)?.map ?? [];
  const derivable = node.type === 'SELECT_NODE' && ctes.length === 0 && from?.type === 'BASE_TABLE'
    && String(from.table_name).toLowerCase() === table.toLowerCase()
    && !from.catalog_name && (!from.schema_name || from.schema_name === 'main') && from.sample === null;
  if (!derivable) return { columns: readSelectReferences(statement).columns, filterColumns: new Set(), selection: undefined };
  const where = node.where_clause ?? null;
  const filterColumns = new Set<string>();
  collectColumnNames(where, filterColumns);
  const withoutWhere = readSelectReferences({ ...statement, node: { ...node, where_clause: null } }).columns;
  const selectionNode: Node = {
    ...node,
    select_list: [{ class: 'COLUMN_REF', type: 'COLUMN_REF', alias: '', query_location: 0, column_names: ['_source'] }],
    modifiers: [], group_expressions: [], group_sets: [], aggregate_handling: 'STANDARD_HANDLING', having: null, qualify: null,
  };
  return {
    columns: withoutWhere,
    filterColumns,
    selection: { error: false, statements: [{ ...statement, node: selectionNode }] },
  };
}

function collectColumnNames(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) {
    for (const element of node) collectColumnNames(element, into);
    return;
  }
  if (typeof node !== 'object' || node === null) return;
  const record = node as Node;
  if (record.class === 'COLUMN_REF' && Array.isArray(record.column_names)) for (const part of record.column_names) into.add(String(part).toLowerCase());
  for (const value of Object.values(record)) collectColumnNames(value, into);
}
