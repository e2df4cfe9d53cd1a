import { sqlFailure } from '../sql-failure.ts';
import type { BinaryOperator, Expression, SqlType } from '../syntax/sql-syntax.ts';
import { castSqlValue } from './cast-sql-value.ts';
import { decimalArithmetic } from './decimal-arithmetic.ts';
import { integerAsDecimal } from './decimal-type.ts';
import { SqlDecimal } from './sql-decimal.ts';
import type { RuntimeValue } from './sql-runtime-value.ts';

/** One side of an arithmetic operator: its value, DuckDB type, and expression (an integer literal is an INTEGER). */
export interface Operand {
  value: Exclude<RuntimeValue, null>;
  type: SqlType;
  expression: Expression;
}

const arithmeticOperators = new Set<BinaryOperator>(['+', '-', '*', '/', '//', '%']);

function typeName(operand: Operand): string {
  return operand.value instanceof SqlDecimal ? operand.value.sqlType : typeof operand.value === 'boolean' ? 'BOOLEAN' : operand.type;
}

/** A side DuckDB turns into DOUBLE: a DOUBLE, a fraction whose type is unknown, or text (which only a literal may be). */
function isDouble(operand: Operand): boolean {
  const { value, type } = operand;
  return typeof value === 'string' || (typeof value === 'number' && (type === 'DOUBLE' || !Number.isInteger(value)));
}

function asDouble(operand: Operand): number {
  const { value, type } = operand;
  if (value instanceof SqlDecimal) return value.toDouble();
  if (typeof value === 'string') return castSqlValue(value, type, 'DOUBLE', false) as number;
  return value as number;
}

/**
 * Arithmetic where a side is a DECIMAL, as DuckDB binds it: with an integer or another decimal it
 * stays exact (so `3 * 1.1 = 3.3`), with a DOUBLE or text it is DOUBLE arithmetic (where `%` by
 * zero is NaN); `/` always divides as DOUBLE and `//` too (DuckDB has no integer division of
 * decimals); a BOOLEAN fails.
 */
export function arithmeticWithDecimal(operator: BinaryOperator, left: Operand, right: Operand): RuntimeValue {
  if (typeof left.value === 'boolean' || typeof right.value === 'boolean' || !arithmeticOperators.has(operator)) {
    sqlFailure(`Binder Error: No function matches the given name and argument types '${operator}(${typeName(left)}, ${typeName(right)})'. You might need to add explicit type casts.`);
  }
  if (operator === '/' || operator === '//' || isDouble(left) || isDouble(right)) {
    const a = asDouble(left);
    const b = asDouble(right);
    switch (operator) {
      case '+': return a + b;
      case '-': return a - b;
      case '*': return a * b;
      case '/': return a / b;
      case '//': return b === 0 ? null : a / b;
      default: return a % b;
    }
  }
  return decimalArithmetic(operator as '+' | '-' | '*' | '%', asDecimal(left), asDecimal(right));
}

function asDecimal(operand: Operand): SqlDecimal {
  return operand.value instanceof SqlDecimal ? operand.value : integerAsDecimal(operand.value as number, operand.expression);
}
