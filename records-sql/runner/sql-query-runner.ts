import { LikePattern } from '../functions/like-pattern.ts';
import { QueryBudget } from '../query-budget.ts';
import { convertCase } from '../unicode/convert-case.ts';
import type { Expression, SelectStatement, SqlType } from '../syntax/sql-syntax.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { constantNullExpressions } from './constant-null-expressions.ts';
import { evaluateConstantCaseConditions } from './evaluate-constant-case-conditions.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import { evaluateExpression } from './evaluate-expression.ts';
import { expressionType } from './expression-type.ts';
import type { ColumnBinding, ColumnReference, QueryRun } from './query-run.ts';
import type { Relation } from './relation.ts';
import { resolveColumn } from './resolve-column.ts';
import { runStatement } from './run-statement.ts';

/**
 * Runs a parsed SELECT over in-memory relations with DuckDB's semantics where they show in
 * answers: three-valued logic, NULLs skipped by aggregates and sorted last, `/` always dividing as
 * DOUBLE, implicit casts of text in comparisons, strict GROUP BY, one-row scalar subqueries.
 * Uncorrelated subqueries run once per statement. One runner serves one statement.
 */
export class SqlQueryRunner implements QueryRun {
  private readonly subqueryFrames: Array<{ level: number; correlated: boolean }> = [];
  private readonly subqueryResults = new WeakMap<SelectStatement, Relation>();
  private readonly types = new WeakMap<Expression, SqlType>();
  private readonly likePatterns = new Map<string, LikePattern>();
  readonly budget = new QueryBudget();
  constantNulls: ReadonlySet<Expression> = new Set();

  constructor(readonly tables: ReadonlyMap<string, Relation>) {}

  run(statement: SelectStatement): Relation {
    this.constantNulls = constantNullExpressions(statement);
    evaluateConstantCaseConditions(this, statement);
    return this.runStatement(statement, undefined, new Map());
  }

  runStatement(statement: SelectStatement, outer: EvaluationContext | undefined, ctes: Map<string, Relation>): Relation {
    return runStatement(this, statement, outer, ctes);
  }

  runSubquery(query: SelectStatement, context: EvaluationContext): Relation {
    const cached = this.subqueryResults.get(query);
    if (cached) return cached;
    const frame = { level: context.level + 1, correlated: false };
    this.subqueryFrames.push(frame);
    let relation: Relation;
    try {
      relation = this.runStatement(query, context, context.ctes);
    } finally {
      this.subqueryFrames.pop();
    }
    if (frame.correlated) this.markCorrelated(context.level);
    else this.subqueryResults.set(query, relation);
    return relation;
  }

  evaluate(expression: Expression, context: EvaluationContext): RuntimeValue {
    return evaluateExpression(this, expression, context);
  }

  typeOf(expression: Expression, context: EvaluationContext): SqlType {
    let type = this.types.get(expression);
    if (!type) {
      type = expressionType(this, expression, context);
      this.types.set(expression, type);
    }
    return type;
  }

  resolveColumn(reference: ColumnReference, context: EvaluationContext): ColumnBinding {
    return resolveColumn(this, reference, context);
  }

  markCorrelated(level: number): void {
    for (const frame of this.subqueryFrames) if (frame.level > level) frame.correlated = true;
  }

  likePattern(pattern: string, escape: string | undefined, caseInsensitive: boolean): LikePattern {
    const key = `${caseInsensitive ? 'i' : 's'}${escape ?? ''}\u0000${pattern}`;
    let compiled = this.likePatterns.get(key);
    if (!compiled) {
      compiled = new LikePattern(caseInsensitive ? convertCase(pattern, 'lower') : pattern, escape);
      this.likePatterns.set(key, compiled);
    }
    return compiled;
  }
}
