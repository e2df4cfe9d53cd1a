/**
 * The syntax tree of the SQL subset the in-memory engine runs: one SELECT (with CTEs, joins,
 * subqueries, grouping and set operations) over DuckDB-typed columns. Names of columns, tables and
 * functions are kept lower-cased (DuckDB matches identifiers case-insensitively, quoted or not);
 * `text` keeps how a select item was written, for naming its output column.
 */
import type { SqlDecimal } from '../values/sql-decimal.ts';

/** DECIMAL(width, scale): exact, as DuckDB types `1.10` (DECIMAL(3,2)) and `CAST(x AS DECIMAL(10,2))`. */
export type DecimalType = `DECIMAL(${number},${number})`;

export type SqlType = 'INTEGER' | 'DOUBLE' | 'VARCHAR' | 'BOOLEAN' | 'DATE' | 'INTERVAL' | 'NULL' | 'UNKNOWN' | DecimalType;

export type Expression =
  | { type: 'literal'; value: null | number | string | boolean | SqlDecimal; valueType: SqlType }
  | { type: 'dateLiteral'; text: string }
  | { type: 'intervalLiteral'; amount: Expression; unit: string }
  | { type: 'column'; table?: string; name: string }
  | { type: 'unary'; operator: '-' | '+' | 'NOT'; operand: Expression }
  | { type: 'binary'; operator: BinaryOperator; left: Expression; right: Expression }
  | { type: 'isNull'; operand: Expression; negated: boolean }
  | { type: 'isBoolean'; operand: Expression; value: boolean; negated: boolean }
  | { type: 'isDistinctFrom'; left: Expression; right: Expression; negated: boolean }
  | { type: 'between'; operand: Expression; low: Expression; high: Expression; negated: boolean }
  | { type: 'inList'; operand: Expression; list: Expression[]; negated: boolean }
  | { type: 'inSubquery'; operand: Expression; query: SelectStatement; negated: boolean }
  | { type: 'like'; operand: Expression; pattern: Expression; negated: boolean; caseInsensitive: boolean; escape?: Expression }
  | { type: 'case'; operand?: Expression; branches: Array<{ when: Expression; then: Expression }>; otherwise?: Expression }
  /** `integerDigits`: for a cast to an integer type, the digits DuckDB's type holds (TINYINT 3 … HUGEINT 38). */
  | { type: 'cast'; operand: Expression; targetType: SqlType; tryCast: boolean; integerDigits?: number }
  | { type: 'function'; name: string; args: Expression[]; distinct: boolean; star: boolean; filter?: Expression }
  | { type: 'subquery'; query: SelectStatement }
  | { type: 'exists'; query: SelectStatement; negated: boolean };

export type BinaryOperator =
  | '+' | '-' | '*' | '/' | '//' | '%' | '||'
  | '=' | '<>' | '<' | '<=' | '>' | '>='
  | 'AND' | 'OR';

export type SelectItem =
  | { type: 'expression'; expression: Expression; alias?: string; text: string }
  | { type: 'star'; table?: string };

export type TableReference =
  | { type: 'table'; name: string; alias?: string }
  | { type: 'subquery'; query: SelectStatement; alias?: string }
  | { type: 'tableFunction'; name: string; args: Expression[]; alias?: string }
  | { type: 'join'; kind: 'INNER' | 'LEFT' | 'RIGHT' | 'FULL' | 'CROSS'; left: TableReference; right: TableReference; on?: Expression; using?: string[] };

export interface SelectCore {
  type: 'select';
  distinct: boolean;
  items: SelectItem[];
  from?: TableReference;
  where?: Expression;
  /** `GROUP BY ALL` groups by every select item that holds no aggregate. */
  groupBy?: Expression[] | 'ALL';
  having?: Expression;
}

export interface SetOperation {
  type: 'setOperation';
  operator: 'UNION' | 'UNION ALL' | 'INTERSECT' | 'EXCEPT';
  left: QueryBody;
  right: QueryBody;
}

export type QueryBody = SelectCore | SetOperation;

export interface OrderItem {
  expression: Expression;
  descending: boolean;
  /** DuckDB's default is NULLS LAST in both directions. */
  nullsFirst: boolean;
}

export interface SelectStatement {
  with: Array<{ name: string; query: SelectStatement }>;
  body: QueryBody;
  orderBy: OrderItem[];
  limit?: number;
  offset?: number;
}
