import { sqlFailure } from '../sql-failure.ts';
import { powerOfTen } from './powers-of-ten.ts';
import { SqlDecimal } from './sql-decimal.ts';

const zero = BigInt(0);
const one = BigInt(1);
const two = BigInt(2);

/**
 * ceil, floor, trunc and round of a DECIMAL as DuckDB computes them (numeric.cpp), on the exact
 * integer with C's truncating division: each gives DECIMAL(width, 0) but for `round(x, places)`,
 * which keeps `places` digits (at most the scale it had). `round` halves away from zero.
 */
export const decimalRounding = {
  ceil: (value: SqlDecimal) => wholePart(value, (unscaled, power) => (unscaled <= zero ? unscaled / power : (unscaled - one) / power + one)),
  floor: (value: SqlDecimal) => wholePart(value, (unscaled, power) => (unscaled < zero ? (unscaled + one) / power - one : unscaled / power)),
  trunc: (value: SqlDecimal) => wholePart(value, (unscaled, power) => unscaled / power),
  round: (value: SqlDecimal) => wholePart(value, (unscaled, power) => halfAwayFromZero(unscaled, power)),

  /**
   * round(x, places) for a DECIMAL x. DuckDB reads `places` when it binds the query, so it must
   * be a constant there (and here), and a negative `places` that reaches past the digits the type
   * holds gives 0 however large x is (round(5.5, -1) is 0 in DuckDB).
   */
  roundTo(value: SqlDecimal, places: number): SqlDecimal {
    const { unscaled, width, scale } = value;
    if (places < 0) {
      if (places <= -(width - scale)) return new SqlDecimal(zero, width, 0);
      return new SqlDecimal(halfAwayFromZero(unscaled, powerOfTen(scale - places)) * powerOfTen(-places), width, 0);
    }
    if (places >= scale) return value;
    return new SqlDecimal(halfAwayFromZero(unscaled, powerOfTen(scale - places)), width, places);
  },
};

function wholePart(value: SqlDecimal, divide: (unscaled: bigint, power: bigint) => bigint): SqlDecimal {
  if (value.scale === 0) return value;
  return new SqlDecimal(divide(value.unscaled, powerOfTen(value.scale)), value.width, 0);
}

function halfAwayFromZero(unscaled: bigint, power: bigint): bigint {
  const addition = power / two;
  return (unscaled < zero ? unscaled - addition : unscaled + addition) / power;
}

/** DuckDB's message when round(DECIMAL, places) is given a `places` it cannot read when binding. */
export function nonConstantPlaces(name: string): never {
  return sqlFailure(`Not implemented Error: ${name.toUpperCase()}(DECIMAL, INTEGER) with non-constant precision is not supported`);
}
