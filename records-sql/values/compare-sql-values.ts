import { SragError } from '../sql-engine-port.ts';
import { castSqlValue } from './cast-sql-value.ts';
import { SqlDecimal } from './sql-decimal.ts';
import { SqlDate, SqlInterval, type RuntimeValue } from './sql-runtime-value.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';

/**
 * Compare two non-NULL values of one column for ORDER BY, MIN and MAX: numbers by value (decimals
 * exactly, NaN last), text by code point (DuckDB's binary collation: "B" < "a" < "é"), false < true, dates by day.
 */
export function compareSqlValues(left: RuntimeValue, right: RuntimeValue): number {
  if (typeof left === 'number' && typeof right === 'number') return compareDoubles(left, right);
  if ((left instanceof SqlDecimal || right instanceof SqlDecimal) && isDecimalOrNumber(left) && isDecimalOrNumber(right)) {
    return compareNumbers(left as SqlDecimal | number, right as SqlDecimal | number);
  }
  if (typeof left === 'string' && typeof right === 'string') return compareCodePoints(left, right);
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  if (left instanceof SqlDate && right instanceof SqlDate) return left.days - right.days;
  if (left instanceof SqlInterval && right instanceof SqlInterval) return (left.months * 30 + left.days) - (right.months * 30 + right.days);
  return compareCodePoints(String(left), String(right));
}

function isDecimalOrNumber(value: RuntimeValue): boolean {
  return value instanceof SqlDecimal || typeof value === 'number';
}

/** A decimal, or an integer as one; undefined for a fraction. */
function exactly(value: SqlDecimal | number): SqlDecimal | undefined {
  if (value instanceof SqlDecimal) return value;
  return Number.isSafeInteger(value) ? new SqlDecimal(BigInt(value), 19, 0) : undefined;
}

/** A decimal against a decimal or an integer exactly, against a fraction as a DOUBLE (as DuckDB compares DECIMAL and DOUBLE). */
function compareNumbers(left: SqlDecimal | number, right: SqlDecimal | number): number {
  const a = exactly(left);
  const b = exactly(right);
  if (a && b) return a.compareTo(b);
  return compareDoubles(left instanceof SqlDecimal ? left.toDouble() : left, right instanceof SqlDecimal ? right.toDouble() : right);
}

/** DuckDB orders NaN after every other number and equal to itself, in comparisons as in sorting. */
function compareDoubles(left: number, right: number): number {
  if (left < right) return -1;
  if (left > right) return 1;
  if (left === right) return 0;
  return Number.isNaN(left) ? (Number.isNaN(right) ? 0 : 1) : -1;
}

function compareCodePoints(left: string, right: string): number {
  if (left === right) return 0;
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left.codePointAt(index)!;
    const b = right.codePointAt(index)!;
    if (a !== b) return a < b ? -1 : 1;
    if (a > 0xffff) index += 1;
  }
  return left.length - right.length;
}

/**
 * Compare for `=`, `<` and friends with DuckDB's implicit casts: text meets a number, date or
 * boolean by being cast to that type (a failed cast is a conversion error, as in DuckDB); NULL on
 * either side gives NULL.
 */
export function compareWithCoercion(left: RuntimeValue, leftType: SqlType, right: RuntimeValue, rightType: SqlType): number | null {
  if (left === null || right === null) return null;
  const [a, b] = coercePair(left, leftType, right, rightType);
  return compareSqlValues(a, b);
}

function coercePair(left: RuntimeValue, leftType: SqlType, right: RuntimeValue, rightType: SqlType): [RuntimeValue, RuntimeValue] {
  const leftKind = kindOf(left);
  const rightKind = kindOf(right);
  if (leftKind === rightKind) return [left, right];
  // A DECIMAL meets a DOUBLE as a DOUBLE, an integer exactly (compareSqlValues), text as its own DECIMAL type.
  if (leftKind === 'decimal' && rightKind === 'number') return [targetTypeOf(right, rightType) === 'DOUBLE' ? (left as SqlDecimal).toDouble() : left, right];
  if (leftKind === 'number' && rightKind === 'decimal') return [left, targetTypeOf(left, leftType) === 'DOUBLE' ? (right as SqlDecimal).toDouble() : right];
  if (leftKind === 'string') return [castSqlValue(left, leftType, targetTypeOf(right, rightType), false), right];
  if (rightKind === 'string') return [left, castSqlValue(right, rightType, targetTypeOf(left, leftType), false)];
  if (leftKind === 'number' && rightKind === 'boolean') return [left, Number(right)];
  if (leftKind === 'boolean' && rightKind === 'number') return [Number(left), right];
  throw new SragError({
    code: 'SQL_FAILED',
    message: `Binder Error: Cannot compare values of type ${leftType === 'UNKNOWN' ? leftKind : leftType} and type ${rightType === 'UNKNOWN' ? rightKind : rightType} - an explicit cast is required`,
  });
}

/** Which kind of value this is, for the implicit casts of a comparison. A function, not a closure per call: comparisons run per row. */
function kindOf(value: RuntimeValue): string {
  return value instanceof SqlDate ? 'date' : value instanceof SqlInterval ? 'interval' : value instanceof SqlDecimal ? 'decimal' : typeof value;
}

function targetTypeOf(value: RuntimeValue, type: SqlType): SqlType {
  if (typeof value === 'number') return type === 'DOUBLE' || !Number.isInteger(value) ? 'DOUBLE' : 'INTEGER';
  if (value instanceof SqlDecimal) return value.sqlType;
  if (typeof value === 'boolean') return 'BOOLEAN';
  if (value instanceof SqlDate) return 'DATE';
  return 'VARCHAR';
}

/** A key under which GROUP BY, DISTINCT and COUNT(DISTINCT) treat two values as one. */
export function groupingKey(value: RuntimeValue): string {
  if (value === null) return 'n';
  if (typeof value === 'number') return `d${Object.is(value, -0) ? 0 : value}`;
  // Trailing zeros dropped: 2.50 and 2.5 are one value, and the integer 2 and the decimal 2.0 too.
  if (value instanceof SqlDecimal) return `d${value.scale === 0 ? value.toString() : value.toString().replace(/\.?0+$/, '')}`;
  if (typeof value === 'boolean') return value ? 'T' : 'F';
  if (value instanceof SqlDate) return `D${value.days}`;
  if (value instanceof SqlInterval) return `I${value.months}:${value.days}`;
  return `s${value}`;
}
