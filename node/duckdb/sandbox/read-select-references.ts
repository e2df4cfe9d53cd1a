import type { ParsedSelect } from '../../../core/index.ts';

/** What one SELECT reads, from DuckDB's serialized AST: the guard's `ParsedSelect` plus the columns. */
export interface SelectReferences extends ParsedSelect {
  /**
   * Lower-cased names the statement may read as columns (every part of every column reference and
   * `USING` column), or `'all'` when it may read any column: a `*` or `COLUMNS(…)`, a NATURAL join,
   * a PIVOT, a positional reference (`#1`), a whole row named by its table or alias, or a table
   * reference of a kind this reader does not know. A superset is harmless; a miss would change the
   * answer, so every doubt reads all.
   */
  columns: Set<string> | 'all';
}

/** Table references whose columns are exactly the ones their expressions name. */
const knownTableReferences = new Set(['BASE_TABLE', 'JOIN', 'SUBQUERY', 'TABLE_FUNCTION', 'EMPTY', 'EXPRESSION_LIST']);

type Node = Record<string, unknown>;

/**
 * Walks one statement of `json_serialize_sql`. CTE names are scoped as DuckDB binds them: a CTE is
 * visible in the body of the query that defines it, in the CTEs after it and (WITH RECURSIVE) in
 * itself, and in nothing outside; so `SELECT … FROM (WITH secret AS (…) SELECT …), secret` reads
 * the real table `secret`, and so does `WITH secret AS (SELECT * FROM secret) …` inside its CTE.
 */
export function readSelectReferences(statement: unknown): SelectReferences {
  const tables = new Set<string>();
  const tableFunctions = new Set<string>();
  const functions = new Set<string>();
  const relationNames = new Set<string>();
  const columnParts: string[][] = [];
  let readsAll = false;

  const visit = (node: unknown, ctes: ReadonlySet<string>): void => {
    if (Array.isArray(node)) {
      for (const element of node) visit(element, ctes);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    const record = node as Node;
    const cteEntries = (record.cte_map as { map?: Array<{ key: string; value: { query?: { node?: Node } } }> } | undefined)?.map;
    let scope = ctes;
    if (Array.isArray(cteEntries) && cteEntries.length > 0) {
      const defined = new Set(ctes);
      for (const entry of cteEntries) {
        const name = String(entry.key).toLowerCase();
        const body = entry.value?.query;
        const recursive = body?.node?.type === 'RECURSIVE_CTE_NODE';
        visit(body, recursive ? new Set([...defined, name]) : new Set(defined));
        defined.add(name);
      }
      scope = defined;
    }
    readNode(record, scope);
    for (const [key, value] of Object.entries(record)) {
      if (key === 'cte_map') continue;
      visit(value, scope);
    }
  };

  const readNode = (record: Node, ctes: ReadonlySet<string>): void => {
    const type = record.type;
    // Table references carry an alias and a sample clause; query nodes and expressions do not carry both.
    const isTableReference = typeof type === 'string' && 'alias' in record && 'sample' in record && !('class' in record) && !('modifiers' in record);
    if (isTableReference && typeof record.alias === 'string' && record.alias) relationNames.add(record.alias.toLowerCase());
    if (type === 'BASE_TABLE' && typeof record.table_name === 'string') {
      const name = record.table_name.toLowerCase();
      // `main.hotels` is `hotels`; any other schema or catalog stays qualified and is refused.
      const schemaName = record.schema_name === 'main' && !record.catalog_name ? '' : record.schema_name;
      const qualifier = [record.catalog_name, schemaName].filter((part) => typeof part === 'string' && part).join('.');
      if (qualifier) tables.add(`${qualifier}.${name}`.toLowerCase());
      else if (!ctes.has(name)) tables.add(name);
      relationNames.add(name);
    } else if (type === 'TABLE_FUNCTION') {
      const call = record.function as Node | undefined;
      if (typeof call?.function_name === 'string') tableFunctions.add(call.function_name.toLowerCase());
    } else if (isTableReference && !knownTableReferences.has(type)) {
      readsAll = true;
    }
    if (type === 'JOIN') {
      if (record.ref_type === 'NATURAL') readsAll = true;
      if (Array.isArray(record.using_columns)) for (const name of record.using_columns) columnParts.push([String(name)]);
    }
    if (record.class === 'FUNCTION' && typeof record.function_name === 'string') functions.add(record.function_name.toLowerCase());
    if (record.class === 'STAR' || record.class === 'POSITIONAL_REFERENCE') readsAll = true;
    if (record.class === 'COLUMN_REF' && Array.isArray(record.column_names)) columnParts.push(record.column_names.map(String));
  };

  visit(statement, new Set());
  // A TABLE_FUNCTION's call is also a FUNCTION node; it is reported once, as a table function.
  for (const name of tableFunctions) functions.delete(name);
  const columns = new Set<string>();
  for (const parts of columnParts) {
    const lowered = parts.map((part) => part.toLowerCase());
    // `SELECT h FROM hotels h` reads the whole row as one struct.
    if (lowered.length === 1 && relationNames.has(lowered[0]!)) readsAll = true;
    for (const part of lowered) columns.add(part);
  }
  return { tables: [...tables], tableFunctions: [...tableFunctions], functions: [...functions], columns: readsAll ? 'all' : columns };
}
