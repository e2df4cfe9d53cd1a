import { sqlFailure } from '../sql-failure.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';
import { parseDecimalText } from './parse-decimal-text.ts';
import { doublePowerOfTen, powerOfTen } from './powers-of-ten.ts';
import { SqlDecimal } from './sql-decimal.ts';
import type { RuntimeValue } from './sql-runtime-value.ts';

const zero = BigInt(0);
const one = BigInt(1);
const two = BigInt(2);

function fits(unscaled: bigint, limit: bigint): boolean {
  return unscaled < limit && -unscaled < limit;
}

/** C's round(): halves away from zero. */
export function roundHalfAwayFromZero(value: number): number {
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

/** An exact decimal rounded to `scale` digits, halves away from zero (DuckDB's DecimalScaleDownOperator). */
export function scaleDown(unscaled: bigint, fromScale: number, toScale: number): bigint {
  const half = powerOfTen(fromScale - toScale) / two;
  const divided = unscaled / half;
  return (divided < zero ? divided - one : divided + one) / two;
}

/**
 * CAST(value AS DECIMAL(width, scale)) as DuckDB casts each type: a decimal rescaled (rounding half
 * away from zero), an integer exactly, a DOUBLE through `value × 10^scale` rounded in double
 * arithmetic (so 2.675::DOUBLE gives 2.68, since 2.675 × 100 is 267.5 in doubles), text by
 * DuckDB's reader. A value that does not fit fails with DuckDB's conversion error.
 */
export function castToDecimal(value: Exclude<RuntimeValue, null>, fromType: SqlType, width: number, scale: number): SqlDecimal {
  const limit = powerOfTen(width);
  if (value instanceof SqlDecimal) {
    const unscaled = scale >= value.scale ? value.unscaled * powerOfTen(scale - value.scale) : scaleDown(value.unscaled, value.scale, scale);
    if (!fits(unscaled, limit)) sqlFailure(`Conversion Error: Casting value "${value.toString()}" to type DECIMAL(${width},${scale}) failed: value is out of range!`);
    return new SqlDecimal(unscaled, width, scale);
  }
  if (typeof value === 'boolean') return castToDecimal(value ? 1 : 0, 'INTEGER', width, scale);
  if (typeof value === 'number') {
    if (fromType === 'DOUBLE' || !Number.isInteger(value)) {
      const rounded = roundHalfAwayFromZero(value * doublePowerOfTen(scale));
      const bound = doublePowerOfTen(width);
      if (!Number.isFinite(rounded) || rounded <= -bound || rounded >= bound) sqlFailure(`Conversion Error: Could not cast value ${value.toFixed(6)} to DECIMAL(${width},${scale})`);
      return new SqlDecimal(BigInt(rounded), width, scale);
    }
    const unscaled = BigInt(value) * powerOfTen(scale);
    if (!fits(unscaled, limit)) sqlFailure(`Conversion Error: Could not cast value ${value} to DECIMAL(${width},${scale})`);
    return new SqlDecimal(unscaled, width, scale);
  }
  if (typeof value === 'string') {
    const unscaled = parseDecimalText(value, width, scale);
    if (unscaled === undefined) sqlFailure(`Conversion Error: Could not convert string "${value}" to DECIMAL(${width},${scale})`);
    return new SqlDecimal(unscaled, width, scale);
  }
  return sqlFailure(`Conversion Error: Unimplemented type for cast (${fromType} -> DECIMAL(${width},${scale}))`);
}
