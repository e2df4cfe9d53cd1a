import type { Expression } from '../syntax/sql-syntax.ts';
import { castSqlValue } from '../values/cast-sql-value.ts';
import { compareWithCoercion } from '../values/compare-sql-values.ts';
import { toCommonNumericType } from '../values/common-numeric-type.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import { parseDateText, SqlInterval, type RuntimeValue } from '../values/sql-runtime-value.ts';
import { callFunction } from './call-function.ts';
import { aggregateCall } from './aggregate-call.ts';
import { columnValue } from './column-value.ts';
import { evaluateBinary, toNumber } from './evaluate-binary.ts';
import { evaluatePredicate, type Predicate } from './evaluate-predicate.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import { isAggregateCall } from './contains-aggregate.ts';
import { expressionKey } from './expression-key.ts';
import type { QueryRun } from './query-run.ts';
import { sqlFailure } from '../sql-failure.ts';
import { toBoolean } from './three-valued-logic.ts';

const intervalUnits: Record<string, (count: number) => SqlInterval> = {
  day: (count) => new SqlInterval(0, count),
  week: (count) => new SqlInterval(0, count * 7),
  month: (count) => new SqlInterval(count, 0),
  quarter: (count) => new SqlInterval(count * 3, 0),
  year: (count) => new SqlInterval(count * 12, 0),
};

/**
 * The value of an expression in one context. Inside a group, an expression that is one of the
 * grouping expressions reads the group's value, and an aggregate runs over the group's rows.
 */
export function evaluateExpression(run: QueryRun, expression: Expression, context: EvaluationContext): RuntimeValue {
  run.budget.work(1);
  if (context.group && expression.type !== 'literal' && expression.type !== 'dateLiteral') {
    const index = context.group.keys.indexOf(expressionKey(expression, context.columns));
    if (index >= 0) return context.group.values[index]!;
    if (expression.type === 'function' && isAggregateCall(expression)) return aggregateCall(run, expression, context);
  }
  // A constant NULL at DuckDB's bind time evaluates none of its parts (`constantNullExpressions`).
  if (run.constantNulls.size !== 0 && run.constantNulls.has(expression)) return null;
  switch (expression.type) {
    case 'literal': return expression.value;
    case 'dateLiteral': return parseDateText(expression.text);
    case 'intervalLiteral': {
      const amount = run.evaluate(expression.amount, context);
      return amount === null ? null : intervalUnits[expression.unit]!(Math.trunc(toNumber(amount)));
    }
    case 'column': return columnValue(run, expression, context);
    case 'unary': {
      const operand = run.evaluate(expression.operand, context);
      if (expression.operator === 'NOT') {
        const truth = toBoolean(operand);
        return truth === null ? null : !truth;
      }
      if (operand === null) return null;
      if (operand instanceof SqlDecimal) return expression.operator === '-' ? new SqlDecimal(-operand.unscaled, operand.width, operand.scale) : operand;
      const value = toNumber(operand);
      if (expression.operator === '+') return value;
      // An integer is never -0: -(0) is 0, so 1 / -(0) is +Infinity as in DuckDB.
      return run.typeOf(expression.operand, context) === 'INTEGER' ? -value + 0 : -value;
    }
    case 'binary': return evaluateBinary(run, expression, context);
    case 'case': return toCommonNumericType(caseResult(run, expression, context), run.typeOf(expression, context));
    case 'cast':
      return castSqlValue(run.evaluate(expression.operand, context), run.typeOf(expression.operand, context), expression.targetType, expression.tryCast);
    case 'function': return callFunction(run, expression, context);
    case 'subquery': {
      const relation = run.runSubquery(expression.query, context);
      if (relation.columns.length !== 1) sqlFailure(`Binder Error: Subquery returns ${relation.columns.length} columns - expected 1`);
      if (relation.rows.length > 1) {
        sqlFailure('Invalid Input Error: More than one row returned by a subquery used as an expression - scalar subqueries can only return a single row.');
      }
      return relation.rows[0]?.[0] ?? null;
    }
    default: return evaluatePredicate(run, expression as Predicate, context);
  }
}

/** The branch a CASE takes; the caller gives it the CASE's type (DuckDB casts every branch to it). */
function caseResult(run: QueryRun, expression: Extract<Expression, { type: 'case' }>, context: EvaluationContext): RuntimeValue {
  if (expression.operand) {
    const operand = run.evaluate(expression.operand, context);
    const operandType = run.typeOf(expression.operand, context);
    for (const branch of expression.branches) {
      if (compareWithCoercion(operand, operandType, run.evaluate(branch.when, context), run.typeOf(branch.when, context)) === 0) return run.evaluate(branch.then, context);
    }
  } else {
    for (const branch of expression.branches) if (toBoolean(run.evaluate(branch.when, context)) === true) return run.evaluate(branch.then, context);
  }
  return expression.otherwise ? run.evaluate(expression.otherwise, context) : null;
}
