const zero = BigInt(0);
const one = BigInt(1);
const two = BigInt(2);

function bitLength(value: bigint): number {
  return value === zero ? 0 : value.toString(2).length;
}

/** `numerator / denominator` (both positive) rounded to `bits` significant bits, ties to even: mantissa × 2^exponent. */
function roundQuotient(numerator: bigint, denominator: bigint, bits: number): { mantissa: bigint; exponent: number } {
  let exponent = bitLength(numerator) - bitLength(denominator) - bits;
  for (;;) {
    const [top, bottom] = exponent >= 0 ? [numerator, denominator << BigInt(exponent)] : [numerator << BigInt(-exponent), denominator];
    let mantissa = top / bottom;
    if (mantissa >= one << BigInt(bits)) {
      exponent += 1;
      continue;
    }
    if (mantissa < one << BigInt(bits - 1)) {
      exponent -= 1;
      continue;
    }
    const twiceRemainder = (top % bottom) * two;
    if (twiceRemainder > bottom || (twiceRemainder === bottom && (mantissa & one) === one)) mantissa += one;
    if (mantissa === one << BigInt(bits)) return { mantissa: mantissa >> one, exponent: exponent + 1 };
    return { mantissa, exponent };
  }
}

/**
 * `numerator / denominator` as DuckDB's avg computes it over integers and decimals on x86-64: both
 * made `long double` (64 significant bits) and divided there, then the quotient rounded to a
 * double, so rounded twice (IntegerAverageOperationHugeint). A single correctly rounded division
 * differs from it in the last bit about once in two thousand quotients.
 */
export function longDoubleQuotient(numerator: bigint, denominator: bigint): number {
  if (numerator === zero) return 0;
  const negative = numerator < zero !== denominator < zero;
  const top = numerator < zero ? -numerator : numerator;
  const bottom = denominator < zero ? -denominator : denominator;
  const extended = roundQuotient(roundToBits(top, 64), roundToBits(bottom, 64), 64);
  const double = roundQuotient(extended.mantissa, one, 53);
  const magnitude = Number(double.mantissa) * 2 ** (double.exponent + extended.exponent);
  return negative ? -magnitude : magnitude;
}

/** An integer as a `long double` holds it: exact up to 64 bits, rounded beyond. */
function roundToBits(value: bigint, bits: number): bigint {
  const excess = bitLength(value) - bits;
  if (excess <= 0) return value;
  const { mantissa, exponent } = roundQuotient(value, one, bits);
  return mantissa << BigInt(exponent);
}
