const exact: bigint[] = [BigInt(1)];
const ten = BigInt(10);

/** 10^exponent as an exact integer (DuckDB's POWERS_OF_TEN tables, up to 10^38 and beyond). */
export function powerOfTen(exponent: number): bigint {
  while (exact.length <= exponent) exact.push(exact[exact.length - 1]! * ten);
  return exact[exponent]!;
}

/**
 * 10^exponent as a double the way C++ writes the constant `1eN` (DuckDB's DOUBLE_POWERS_OF_TEN):
 * parsed, so correctly rounded, where JavaScript's `10 ** 23` is one unit off.
 */
export function doublePowerOfTen(exponent: number): number {
  let power = doubles[exponent];
  if (power === undefined) {
    power = Number(`1e${exponent}`);
    if (exponent >= 0 && exponent <= 400) doubles[exponent] = power;
  }
  return power;
}

const doubles: number[] = [];
