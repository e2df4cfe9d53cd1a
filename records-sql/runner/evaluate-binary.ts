import { addInterval } from '../functions/date-arithmetic.ts';
import { sqlFailure } from '../sql-failure.ts';
import type { BinaryOperator, Expression } from '../syntax/sql-syntax.ts';
import { castSqlValue } from '../values/cast-sql-value.ts';
import { compareWithCoercion } from '../values/compare-sql-values.ts';
import { formatSqlValue } from '../values/format-sql-value.ts';
import { integerDigits } from '../syntax/integer-digits.ts';
import { integerArithmetic } from '../values/integer-arithmetic.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import { SqlDate, SqlInterval, type RuntimeValue } from '../values/sql-runtime-value.ts';
import { arithmeticWithDecimal } from '../values/arithmetic-with-decimal.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';
import { and, or, toBoolean } from './three-valued-logic.ts';

/**
 * AND and OR (short-circuit, three-valued), comparisons with DuckDB's implicit casts, `||`, and
 * arithmetic: integers exactly (an overflow fails as in DuckDB), `/` always divides as DOUBLE, `//` truncates integers only (a DOUBLE `//` divides as
 * `/` does), `//` by zero and an integer `%` by zero give NULL (a DOUBLE `%` by zero is NaN, C's
 * fmod), decimals stay exact, dates take days or intervals.
 */
export function evaluateBinary(run: QueryRun, expression: Extract<Expression, { type: 'binary' }>, context: EvaluationContext): RuntimeValue {
  const { operator } = expression;
  if (operator === 'AND' || operator === 'OR') {
    const left = toBoolean(run.evaluate(expression.left, context));
    if (operator === 'AND' && left === false) return false;
    if (operator === 'OR' && left === true) return true;
    const right = toBoolean(run.evaluate(expression.right, context));
    return operator === 'AND' ? and(left, right) : or(left, right);
  }
  const left = run.evaluate(expression.left, context);
  const right = run.evaluate(expression.right, context);
  if (['=', '<>', '<', '<=', '>', '>='].includes(operator)) {
    const order = compareWithCoercion(left, run.typeOf(expression.left, context), right, run.typeOf(expression.right, context));
    if (order === null) return null;
    switch (operator) {
      case '=': return order === 0;
      case '<>': return order !== 0;
      case '<': return order < 0;
      case '<=': return order <= 0;
      case '>': return order > 0;
      default: return order >= 0;
    }
  }
  if (left === null || right === null) return null;
  if (operator === '||') {
    const leftText = formatSqlValue(left, run.typeOf(expression.left, context))!;
    const rightText = formatSqlValue(right, run.typeOf(expression.right, context))!;
    run.budget.keptText(leftText.length + rightText.length);
    const joined = leftText + rightText;
    run.budget.text(joined.length);
    return joined;
  }
  if (left instanceof SqlDate || right instanceof SqlDate || left instanceof SqlInterval || right instanceof SqlInterval) {
    return dateArithmetic(operator, left, right);
  }
  if (left instanceof SqlDecimal || right instanceof SqlDecimal) {
    return arithmeticWithDecimal(
      operator,
      { value: left, type: run.typeOf(expression.left, context), expression: expression.left },
      { value: right, type: run.typeOf(expression.right, context), expression: expression.right },
    );
  }
  const a = toNumber(left);
  const b = toNumber(right);
  if ((operator === '+' || operator === '-' || operator === '*') && Number.isInteger(a) && Number.isInteger(b)
    && run.typeOf(expression.left, context) === 'INTEGER' && run.typeOf(expression.right, context) === 'INTEGER') {
    return integerArithmetic(operator, a, b, integerDigits(expression));
  }
  switch (operator) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    case '//':
    case '%': {
      const double = run.typeOf(expression.left, context) === 'DOUBLE' || run.typeOf(expression.right, context) === 'DOUBLE' || !Number.isInteger(a) || !Number.isInteger(b);
      // An integer is never -0 (JavaScript's -4 % 2 is): + 0 makes it 0.
      if (operator === '%') return double ? a % b : b === 0 ? null : (a % b) + 0;
      return b === 0 ? null : double ? a / b : Math.trunc(a / b) + 0;
    }
    default: return sqlFailure(`Binder Error: unknown operator ${operator}`);
  }
}

/** A number for arithmetic: booleans count as 0 and 1, text is cast to DOUBLE, a decimal is cast as DuckDB casts it. */
export function toNumber(value: RuntimeValue): number {
  if (typeof value === 'number') return value;
  if (value instanceof SqlDecimal) return value.toDouble();
  if (typeof value === 'boolean') return Number(value);
  if (typeof value === 'string') return castSqlValue(value, 'VARCHAR', 'DOUBLE', false) as number;
  return sqlFailure('Binder Error: arithmetic on a DATE takes an INTEGER number of days or an INTERVAL');
}

function dateArithmetic(operator: BinaryOperator, left: RuntimeValue, right: RuntimeValue): RuntimeValue {
  if (left instanceof SqlDate && right instanceof SqlDate && operator === '-') return left.days - right.days;
  if (left instanceof SqlDate && typeof right === 'number' && (operator === '+' || operator === '-')) return new SqlDate(left.days + (operator === '+' ? right : -right));
  if (typeof left === 'number' && right instanceof SqlDate && operator === '+') return new SqlDate(right.days + left);
  if (left instanceof SqlDate && right instanceof SqlInterval && (operator === '+' || operator === '-')) return addInterval(left, right, operator === '+' ? 1 : -1);
  if (left instanceof SqlInterval && right instanceof SqlDate && operator === '+') return addInterval(right, left, 1);
  return sqlFailure(`Binder Error: No function matches the given name and argument types '${operator}' for these date values`);
}
