import { sqlFailure } from '../sql-failure.ts';
import { widestDecimal, type DecimalParts } from './decimal-type.ts';
import { powerOfTen } from './powers-of-ten.ts';
import { SqlDecimal } from './sql-decimal.ts';

export type DecimalOperator = '+' | '-' | '*' | '%';

/** DuckDB stores a DECIMAL of up to 18 digits in 64 bits and widens past them only when an input is wider already. */
const widestIn64Bits = 18;
const zero = BigInt(0);

/** What DuckDB binds `left operator right` to: a DECIMAL that may be checked for overflow, or DOUBLE. */
export type DecimalResult = { parts: DecimalParts; checkOverflow: boolean } | 'DOUBLE';

/**
 * DuckDB's result type for decimal arithmetic (BindDecimalArithmetic, BindDecimalMultiply):
 * `+ -` take the larger scale and one more digit than either side needs; `*` adds widths and
 * scales; `%` takes the larger scale and the digits either side needs. Past 18 digits from inputs
 * of at most 18, and past 38 digits, the width is capped and every result checked for overflow
 * (`%` falls back to DOUBLE instead). A product needing a scale over 38 is an error.
 */
export function decimalResultType(operator: DecimalOperator, left: DecimalParts, right: DecimalParts): DecimalResult {
  const widest = Math.max(left.width, right.width);
  if (operator === '*') {
    let width = left.width + right.width;
    const scale = left.scale + right.scale;
    if (scale > widestDecimal) {
      sqlFailure(`Out of Range Error: Needed scale ${scale} to accurately represent the multiplication result, but this is out of range of the DECIMAL type. Max scale is ${widestDecimal}; could not perform an accurate multiplication. Either add a cast to DOUBLE, or add an explicit cast to a decimal with a lower scale.`);
    }
    let checkOverflow = false;
    if (width > widestIn64Bits && widest <= widestIn64Bits && scale < widestIn64Bits) [width, checkOverflow] = [widestIn64Bits, true];
    if (width > widestDecimal) [width, checkOverflow] = [widestDecimal, true];
    return { parts: { width, scale }, checkOverflow };
  }
  const scale = Math.max(left.scale, right.scale);
  let width = Math.max(scale + Math.max(left.width - left.scale, right.width - right.scale), widest);
  let checkOverflow = false;
  if (operator === '%') {
    if (width > widestDecimal) return 'DOUBLE';
    return { parts: { width, scale }, checkOverflow };
  }
  width += 1;
  if (width > widestIn64Bits && widest <= widestIn64Bits) [width, checkOverflow] = [widestIn64Bits, true];
  if (width > widestDecimal) [width, checkOverflow] = [widestDecimal, true];
  return { parts: { width, scale }, checkOverflow };
}

/** An operand cast to the result's DECIMAL(width, scale) (a larger scale), as DuckDB casts it first. */
function rescaledTo(operand: SqlDecimal, width: number, scale: number, limit: bigint): bigint {
  if (operand.scale === scale) return operand.unscaled;
  const rescaled = operand.unscaled * powerOfTen(scale - operand.scale);
  if (rescaled >= limit || -rescaled >= limit) sqlFailure(`Conversion Error: Casting value "${operand.toString()}" to type DECIMAL(${width},${scale}) failed: value is out of range!`);
  return rescaled;
}

/**
 * `left operator right` over two decimals, exactly, with DuckDB's result type and errors; `%` by
 * zero is NULL. Integers meet a decimal as DECIMAL(10,0) or DECIMAL(19,0) (`integerAsDecimal`).
 */
export function decimalArithmetic(operator: DecimalOperator, left: SqlDecimal, right: SqlDecimal): SqlDecimal | number | null {
  const result = decimalResultType(operator, left, right);
  if (result === 'DOUBLE') {
    const divisor = right.toDouble();
    return divisor === 0 ? null : left.toDouble() % divisor;
  }
  const { parts: { width, scale }, checkOverflow } = result;
  const limit = powerOfTen(width);
  let value: bigint;
  if (operator === '*') {
    value = left.unscaled * right.unscaled;
  } else {
    const a = rescaledTo(left, width, scale, limit);
    const b = rescaledTo(right, width, scale, limit);
    if (operator === '%') {
      if (b === zero) return null;
      value = a % b;
    } else {
      value = operator === '+' ? a + b : a - b;
    }
  }
  if (checkOverflow && (value >= limit || -value >= limit)) {
    const words = operator === '*' ? 'multiplication' : operator === '+' ? 'addition' : 'subtraction';
    sqlFailure(`Out of Range Error: Overflow in ${words} of DECIMAL(${width}) (${left.unscaled} ${operator} ${right.unscaled}). You might want to add an explicit cast to a bigger decimal.`);
  }
  return new SqlDecimal(value, width, scale);
}
