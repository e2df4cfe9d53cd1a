import type { RecordTable } from '../../../app/index.ts';

/** One column of the records a result was computed from: `reference.column`, and what it is. */
export interface TracedColumn {
  /** Its name in the traced rows: `reference.column`. */
  name: string;
  table: string;
  /** How the statement names the table: its alias, or its name. */
  reference: string;
  column: string;
  /** `document`: the row's document (`_source`, `filename`); `position`: an item's place in its list; `value`: an attribute. */
  role: 'document' | 'position' | 'value';
}

/**
 * What a result row's records are: `all` the rows the statement selects (an aggregate over them,
 * or a row that could not be told apart), those of the row's `group`, or the `row`'s own.
 */
export type TraceNarrowing = 'all' | 'group' | 'row';

/** How to select the records behind a result's rows (see `readTracePlan`). */
export interface TracePlan {
  /**
   * The statement that selects every traced column of the rows the query's FROM and WHERE keep,
   * then one key per result column that tells its rows apart (`srag_key_0`, …), serialized for
   * `json_deserialize_sql`.
   */
  selection: unknown;
  columns: TracedColumn[];
  /** Per key, in order: the result column whose value the key must equal. */
  keys: number[];
  narrowing: TraceNarrowing;
  /** Why a row's records could not be narrowed to its group or its own: said with them. */
  note?: string;
}

/** A statement whose records cannot be derived from it alone, and why. */
export interface Untraceable {
  untraceable: string;
}

type Node = Record<string, unknown>;

/**
 * Reads from one statement of `json_serialize_sql` (the answer's SQL, as DuckDB parsed it) how to
 * select the records each row of its result was computed from: the rows its FROM (base tables and
 * joins) and WHERE keep — the selection its coverage counts — narrowed, for a GROUP BY, to the
 * row's group (each grouping expression equal to the row's value for it), and for a statement
 * without aggregates, to the row itself (each selected expression equal to the row's value). An
 * aggregate without GROUP BY rests on every selected row. `tables` are the tables the question was
 * asked of; `aggregates` the engine's aggregate function names; `resultColumns` the result's.
 */
export function readTracePlan(serialized: { statements: Array<{ node: unknown }> }, tables: readonly RecordTable[], aggregates: ReadonlySet<string>, resultColumns: readonly string[]): TracePlan | Untraceable {
  const node = serialized.statements[0]!.node as Node;
  if (node.type !== 'SELECT_NODE') return { untraceable: 'the query combines several queries (UNION, INTERSECT or EXCEPT)' };
  if (((node.cte_map as { map?: unknown[] } | undefined)?.map ?? []).length > 0) return { untraceable: 'the query reads from a WITH clause' };
  const references: Array<{ reference: string; table: RecordTable }> = [];
  const problem = collectBaseTables(node.from_table as Node | undefined, tables, references);
  if (problem) return { untraceable: problem };
  const columns = references.flatMap(({ reference, table }) => tracedColumns(reference, table));
  const selectList = (node.select_list as Node[] | undefined) ?? [];
  const keyed = readKeys(node, selectList, references, aggregates, resultColumns);
  const selection: Node = {
    ...node,
    select_list: [
      ...columns.map((column) => columnReference([column.reference, column.column], column.name)),
      ...keyed.expressions.map((expression, index) => ({ ...expression, alias: `srag_key_${index}` })),
    ],
    modifiers: [], group_expressions: [], group_sets: [], aggregate_handling: 'STANDARD_HANDLING', having: null, qualify: null,
  };
  const statement = serialized.statements[0]!;
  return {
    selection: { error: false, statements: [{ ...statement, node: selection }] },
    columns,
    keys: keyed.resultColumns,
    narrowing: keyed.narrowing,
    ...(keyed.note ? { note: keyed.note } : {}),
  };
}

/** The base tables of FROM with the name the statement calls each by; a problem when FROM holds anything else. */
function collectBaseTables(from: Node | undefined, tables: readonly RecordTable[], into: Array<{ reference: string; table: RecordTable }>): string | undefined {
  if (!from || from.type === 'EMPTY') return 'the query reads no table';
  if (from.type === 'JOIN') {
    if (from.ref_type !== 'REGULAR' && from.ref_type !== 'CROSS') return 'the query joins in a way whose rows cannot be traced (a NATURAL, ASOF, POSITIONAL or LATERAL join)';
    return collectBaseTables(from.left as Node, tables, into) ?? collectBaseTables(from.right as Node, tables, into);
  }
  if (from.type !== 'BASE_TABLE') return 'the query reads from a subquery or a table function in FROM';
  if (from.catalog_name || (from.schema_name && from.schema_name !== 'main') || from.sample) return 'the query reads a table of another schema, or a sample';
  const name = String(from.table_name);
  const table = tables.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
  if (!table) return `the query reads ${name}, which is not one of the tables the question was asked of`;
  into.push({ reference: String(from.alias || table.name), table });
  return undefined;
}

/** A table's columns as traced: its document (and an item's place) first, then each attribute it holds. */
function tracedColumns(reference: string, table: RecordTable): TracedColumn[] {
  const present = new Set(table.columns.map((column) => column.name.toLowerCase()));
  const column = (name: string, role: TracedColumn['role']): TracedColumn => ({ name: `${reference}.${name}`, table: table.name, reference, column: name, role });
  const document = table.madeBy === 'srag import' ? [] : [column(table.madeBy === 'srag_extract' ? 'filename' : '_source', 'document')];
  const position = table.parent ? [column('_position', 'position')] : [];
  const values = table.schema.attributes.filter((attribute) => present.has(attribute.name.toLowerCase())).map((attribute) => column(attribute.name, 'value'));
  return [...document, ...position, ...values];
}

interface Keys {
  expressions: Node[];
  resultColumns: number[];
  narrowing: TraceNarrowing;
  note?: string;
}

/** The expressions that tell a result row's records apart from the other rows', each with its result column. */
function readKeys(node: Node, selectList: Node[], references: ReadonlyArray<{ reference: string; table: RecordTable }>, aggregates: ReadonlySet<string>, resultColumns: readonly string[]): Keys {
  const all = (note?: string): Keys => ({ expressions: [], resultColumns: [], narrowing: 'all', ...(note ? { note } : {}) });
  const groups = (node.group_expressions as Node[] | undefined) ?? [];
  const groupAll = node.aggregate_handling === 'FORCE_AGGREGATES';
  const hasStar = selectList.some((item) => item.class === 'STAR');
  if (groups.length > 0 || groupAll) {
    if (((node.group_sets as unknown[] | undefined) ?? []).length > 1) return all('the query groups in several ways at once (GROUPING SETS, ROLLUP or CUBE), so a row is not told apart from the others');
    if (hasStar || selectList.length !== resultColumns.length) return all('the result\'s columns could not be matched to what the query groups by');
    const keyed = groupAll
      ? selectList.flatMap((item, index) => (containsAggregate(item, aggregates) || item.class === 'CONSTANT' ? [] : [index]))
      : groups.map((group) => groupColumn(group, selectList));
    if (keyed.some((index) => index === undefined)) return all('the result does not show everything the query groups by, so its rows are not told apart');
    const indices = keyed as number[];
    return { expressions: indices.map((index) => withoutAlias(selectList[index]!)), resultColumns: indices, narrowing: 'group' };
  }
  if (selectList.some((item) => containsAggregate(item, aggregates))) return all();
  if (hasStar) return starKeys(selectList, references, resultColumns) ?? all('the query selects * beside other columns, so its rows are not matched to their records');
  if (selectList.length !== resultColumns.length) return all('the result\'s columns could not be matched to what the query selects');
  const indices = selectList.flatMap((item, index) => (item.class === 'CONSTANT' ? [] : [index]));
  return { expressions: indices.map((index) => withoutAlias(selectList[index]!)), resultColumns: indices, narrowing: 'row' };
}

/** `SELECT *` (alone): each result column that is a column of exactly one traced table, by name. */
function starKeys(selectList: Node[], references: ReadonlyArray<{ reference: string; table: RecordTable }>, resultColumns: readonly string[]): Keys | undefined {
  const star = selectList[0]!;
  const plain = selectList.length === 1 && !star.relation_name && !star.expr && ((star.exclude_list as unknown[] | undefined) ?? []).length === 0
    && ((star.replace_list as unknown[] | undefined) ?? []).length === 0 && !star.columns;
  if (!plain) return undefined;
  const expressions: Node[] = [];
  const keyed: number[] = [];
  resultColumns.forEach((name, index) => {
    const holding = references.filter(({ table }) => table.columns.some((column) => column.name.toLowerCase() === name.toLowerCase()));
    if (holding.length !== 1) return;
    expressions.push(columnReference([holding[0]!.reference, name], ''));
    keyed.push(index);
  });
  return keyed.length ? { expressions, resultColumns: keyed, narrowing: 'row' } : undefined;
}

/** The select-list item a GROUP BY expression is: the same expression, an alias of one, or its position (`GROUP BY 1`). */
function groupColumn(group: Node, selectList: readonly Node[]): number | undefined {
  const shape = comparable(group);
  const same = selectList.findIndex((item) => comparable(item) === shape);
  if (same >= 0) return same;
  const names = group.class === 'COLUMN_REF' ? (group.column_names as string[]) : [];
  if (names.length === 1) {
    const aliased = selectList.findIndex((item) => String(item.alias ?? '').toLowerCase() === names[0]!.toLowerCase());
    if (aliased >= 0) return aliased;
  }
  const value = (group.value as { value?: unknown; type?: { id?: string } } | undefined);
  if (group.class === 'CONSTANT' && typeof value?.value === 'number' && /INT/.test(value.type?.id ?? '')) {
    const index = value.value - 1;
    return index >= 0 && index < selectList.length ? index : undefined;
  }
  return undefined;
}

/** True when `node` calls an aggregate outside a window and outside a subquery (which aggregates its own rows). */
function containsAggregate(node: unknown, aggregates: ReadonlySet<string>): boolean {
  if (Array.isArray(node)) return node.some((element) => containsAggregate(element, aggregates));
  if (typeof node !== 'object' || node === null) return false;
  const record = node as Node;
  if (record.class === 'WINDOW' || record.class === 'SUBQUERY') return false;
  if (record.class === 'FUNCTION' && aggregates.has(String(record.function_name).toLowerCase())) return true;
  return Object.values(record).some((value) => containsAggregate(value, aggregates));
}

/** An expression's shape, without its alias and positions: equal for the same expression written twice. */
function comparable(node: Node): string {
  return JSON.stringify({ ...node, alias: '' }, (key, value: unknown) => (key === 'query_location' ? undefined : value));
}

function withoutAlias(node: Node): Node {
  return { ...node, alias: '' };
}

function columnReference(names: string[], alias: string): Node {
  return { class: 'COLUMN_REF', type: 'COLUMN_REF', alias, query_location: 0, column_names: names };
}
