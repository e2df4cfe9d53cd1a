import type { LikePattern } from '../functions/like-pattern.ts';
import type { QueryBudget } from '../query-budget.ts';
import type { Expression, SelectStatement, SqlType } from '../syntax/sql-syntax.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { Relation } from './relation.ts';

export type ColumnReference = Extract<Expression, { type: 'column' }>;

/** What a column name resolves to: a column of some enclosing row, or a select-list alias. */
export type ColumnBinding = { context: EvaluationContext; index: number } | { alias: Expression };

/**
 * One running statement: the tables it may read, the caches and counters it keeps, and the
 * recursive steps (statements, expressions, types) that the step files call through it, so those
 * files do not import one another.
 */
export interface QueryRun {
  readonly tables: ReadonlyMap<string, Relation>;
  runStatement(statement: SelectStatement, outer: EvaluationContext | undefined, ctes: Map<string, Relation>): Relation;
  /** A subquery's rows; an uncorrelated subquery runs once per statement. */
  runSubquery(query: SelectStatement, context: EvaluationContext): Relation;
  evaluate(expression: Expression, context: EvaluationContext): RuntimeValue;
  /** The DuckDB type of an expression; it decides how numbers print (printf, casts to VARCHAR). */
  typeOf(expression: Expression, context: EvaluationContext): SqlType;
  resolveColumn(reference: ColumnReference, context: EvaluationContext): ColumnBinding;
  /** A column of the query at `level` was read from inside deeper subqueries: they are correlated. */
  markCorrelated(level: number): void;
  /** The compiled LIKE pattern (lower-cased for ILIKE, as DuckDB lower-cases), cached for the statement. */
  likePattern(pattern: string, escape: string | undefined, caseInsensitive: boolean): LikePattern;
  /** Every step charges its work and the memory it keeps here; a runaway query is stopped. */
  readonly budget: QueryBudget;
  /** Expressions DuckDB makes a constant NULL when it binds the statement: NULL, never evaluated. */
  readonly constantNulls: ReadonlySet<Expression>;
}
