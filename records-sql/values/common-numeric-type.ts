import type { Expression, SqlType } from '../syntax/sql-syntax.ts';
import { castSqlValue } from './cast-sql-value.ts';
import { castToDecimal } from './cast-to-decimal.ts';
import { integerDigits } from '../syntax/integer-digits.ts';
import { decimalParts, decimalType, widestDecimal, type DecimalParts } from './decimal-type.ts';
import { SqlDecimal } from './sql-decimal.ts';
import type { RuntimeValue } from './sql-runtime-value.ts';

/** Two decimals: room for both whole parts and the larger scale; past 38 digits the scale gives way (CombineEqualTypes). */
function combineDecimals(left: DecimalParts, right: DecimalParts): DecimalParts {
  const wholeDigits = Math.max(left.width - left.scale, right.width - right.scale);
  const scale = Math.max(left.scale, right.scale);
  if (wholeDigits + scale <= widestDecimal) return { width: wholeDigits + scale, scale };
  return { width: widestDecimal, scale: widestDecimal - wholeDigits };
}

/** A decimal and an integer of `digits` digits: the decimal widened to hold the integer, the scale kept (DecimalSizeCheck). */
function combineWithInteger(decimal: DecimalParts, digits: number): DecimalParts {
  if (digits <= decimal.width - decimal.scale) return decimal;
  return { width: Math.min(widestDecimal, digits + decimal.scale), scale: decimal.scale };
}

/**
 * The type DuckDB gives the branches of a CASE and the arguments of coalesce(), greatest() and
 * least() when their number types differ (MaxLogicalType, folded left to right): DOUBLE if any is
 * DOUBLE, else a DECIMAL that holds them all, an integer as wide as its type (`integerDigits`).
 * Undefined when they are all of one type or a side is not a number: then the engine keeps the
 * first side's type.
 */
export function commonNumericType(types: SqlType[], expressions: Expression[] = []): SqlType | undefined {
  // A call asks for each row; its argument list is the same object every time.
  if (expressions.length && known.has(expressions)) return known.get(expressions);
  const common = decide(types, expressions);
  if (expressions.length) known.set(expressions, common);
  return common;
}

const known = new WeakMap<Expression[], SqlType | undefined>();

function decide(types: SqlType[], expressions: Expression[]): SqlType | undefined {
  const sides = types.map((type, index) => ({ type, expression: expressions[index] })).filter(({ type }) => type !== 'NULL');
  if (!sides.every(({ type }) => type === 'INTEGER' || type === 'DOUBLE' || decimalParts(type))) return undefined;
  if (sides.some(({ type }) => type === 'DOUBLE')) return sides.some(({ type }) => type !== 'DOUBLE') ? 'DOUBLE' : undefined;
  if (!sides.some(({ type }) => decimalParts(type))) return undefined;
  let common: DecimalParts | undefined;
  // Integers before the first DECIMAL combine among themselves first: the widest of them.
  let widestInteger = 0;
  for (const { type, expression } of sides) {
    const parts = decimalParts(type);
    if (parts) common = common ? combineDecimals(common, parts) : parts;
    else if (common) common = combineWithInteger(common, integerDigits(expression));
    else widestInteger = Math.max(widestInteger, integerDigits(expression));
    if (common && widestInteger) {
      common = combineWithInteger(common, widestInteger);
      widestInteger = 0;
    }
  }
  return decimalType(common!.width, common!.scale);
}

/** A value of one branch or argument made the common type (a DECIMAL rescaled, or a DOUBLE). */
export function toCommonNumericType(value: RuntimeValue, type: SqlType | undefined): RuntimeValue {
  if (value === null || type === undefined) return value;
  if (type === 'DOUBLE') return value instanceof SqlDecimal ? value.toDouble() : value;
  const parts = decimalParts(type);
  if (parts && (value instanceof SqlDecimal || (typeof value === 'number' && Number.isInteger(value)))) return castToDecimal(value, 'INTEGER', parts.width, parts.scale);
  return value;
}

/**
 * The sides of a BETWEEN or an IN list made the one type DuckDB compares them in when a DECIMAL is
 * among them: the common type of the numbers, and text cast to it. So `1.5 IN ('1.54', 2.25)` is
 * false, as in DuckDB ('1.54' read as DECIMAL(3,2)), where comparing pair by pair would read
 * '1.54' as the DECIMAL(2,1) 1.5. Undefined when no DECIMAL is involved (each pair is compared
 * with its own implicit casts then).
 */
export function inCommonNumericType(sides: Array<{ value: RuntimeValue; type: SqlType; expression?: Expression }>): RuntimeValue[] | undefined {
  // The types are the sides' own (a NULL side counts by its type too); text is not among them.
  const typed = sides.map(({ value, type, expression }) => ({
    type: value instanceof SqlDecimal ? value.sqlType : type === 'UNKNOWN' && typeof value === 'number' ? (Number.isInteger(value) ? 'INTEGER' : 'DOUBLE') : type,
    expression,
  })).filter(({ type }) => type !== 'VARCHAR' && type !== 'NULL' && type !== 'UNKNOWN');
  if (!typed.some(({ type }) => decimalParts(type))) return undefined;
  const common = commonNumericType(typed.map(({ type }) => type), typed.map(({ expression }) => expression) as Expression[]);
  if (common === undefined || !sides.every(({ value }) => value === null || typeof value === 'string' || typeof value === 'number' || value instanceof SqlDecimal)) return undefined;
  return sides.map(({ value, type }) => (typeof value === 'string' ? castSqlValue(value, type, common, false) : toCommonNumericType(value, common)));
}
