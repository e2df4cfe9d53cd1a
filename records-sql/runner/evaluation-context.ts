import type { Expression } from '../syntax/sql-syntax.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import type { Relation, RelationColumn } from './relation.ts';

/** The rows of one GROUP BY group and the values of its grouping expressions. */
export interface Group {
  rows: RuntimeValue[][];
  /** `expressionKey` of each grouping expression, so an expression that is one reads its value. */
  keys: string[];
  values: RuntimeValue[];
}

/** Where an expression is evaluated: one row of a relation, inside the queries that enclose it. */
export interface EvaluationContext {
  columns: RelationColumn[];
  row: RuntimeValue[];
  /** Nesting depth of the query this context belongs to; correlated subqueries see lower levels. */
  level: number;
  outer?: EvaluationContext;
  group?: Group;
  /** Select-list aliases a WHERE, GROUP BY or HAVING may name (DuckDB allows it). */
  aliases?: Map<string, Expression>;
  ctes: Map<string, Relation>;
}
