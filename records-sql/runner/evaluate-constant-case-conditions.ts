import { findAggregateFunction } from '../functions/aggregate-functions.ts';
import { isConstantExpression } from '../syntax/is-constant-expression.ts';
import type { Expression, SelectStatement } from '../syntax/sql-syntax.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';
import { toBoolean } from './three-valued-logic.ts';

const isAggregate = (name: string) => findAggregateFunction(name) !== undefined;

/**
 * DuckDB's optimizer evaluates each constant WHEN of a CASE while it plans the query, up to the
 * first that holds (CaseSimplificationRule), whether or not a row ever reaches the CASE: so
 * `CASE WHEN CAST(1. AS DECIMAL(1,1)) > 0 …` fails the query even inside a coalesce() argument
 * that is never evaluated, or over no rows. This engine evaluates the same conditions before it
 * reads a row, and fails the same way. The optimizer works from the top down and drops the
 * branches a constant condition rules out, so a CASE inside a dropped branch is never looked at.
 */
export function evaluateConstantCaseConditions(run: QueryRun, statement: SelectStatement): void {
  const context: EvaluationContext = { columns: [], row: [], level: 0, ctes: new Map() };
  const pending: object[] = [statement];
  while (pending.length) {
    const node = pending.pop()!;
    const expression = node as Expression;
    if (expression.type !== 'case') {
      for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) pending.push(child);
      continue;
    }
    if (expression.operand) pending.push(expression.operand);
    let otherwise = expression.otherwise;
    for (const branch of expression.branches) {
      const condition: Expression = expression.operand ? { type: 'binary', operator: '=', left: expression.operand, right: branch.when } : branch.when;
      if (!isConstantExpression(condition, isAggregate)) {
        pending.push(branch.when, branch.then);
        continue;
      }
      if (toBoolean(run.evaluate(condition, context)) === true) {
        otherwise = branch.then;
        break;
      }
    }
    if (otherwise) pending.push(otherwise);
  }
}
