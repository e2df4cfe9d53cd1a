import { sqlFailure } from '../sql-failure.ts';
import { unsupportedFeature } from '../unsupported-feature.ts';

interface IntegerType {
  name: string;
  minimum: bigint;
  maximum: bigint;
  /** The bounds as doubles, for the quick check of a result below 2^53. */
  lowest: number;
  highest: number;
}

/** Each integer type by its digits (`integerDigits`): its name and bounds. */
const integerTypes: Record<number, IntegerType> = Object.fromEntries(
  [[3, 'INT8', 8], [5, 'INT16', 16], [10, 'INT32', 32], [19, 'INT64', 64], [38, 'INT128', 128]].map(([digits, name, bits]) => {
    const maximum = BigInt(2) ** BigInt((bits as number) - 1) - BigInt(1);
    return [digits, { name, minimum: -maximum - BigInt(1), maximum, lowest: Number(-maximum - BigInt(1)), highest: Number(maximum) }];
  }),
);
const words = { '+': 'addition', '-': 'subtraction', '*': 'multiplication' } as const;

function typeOf(digits: number): IntegerType {
  return integerTypes[digits] ?? integerTypes[19]!;
}

/** Whether a whole number fits the integer type of `digits` digits. */
export function integerFits(value: number, digits: number): boolean {
  const { lowest, highest } = typeOf(digits);
  return Number.isSafeInteger(value) && value >= lowest && value <= highest;
}

/**
 * `+ - *` of two integers as DuckDB computes them: exact, and an overflow of their type (INT32
 * for literals, INT64 for the record columns, `integerDigits`) is DuckDB's error, not a rounded
 * double. An exact result past 2^53 fits DuckDB's BIGINT but not a JavaScript number, so it is
 * refused rather than rounded. 0 is never negative, as an integer.
 */
export function integerArithmetic(operator: '+' | '-' | '*', left: number, right: number, digits: number): number {
  const result = (operator === '+' ? left + right : operator === '-' ? left - right : left * right) + 0;
  if (integerFits(result, digits)) return result;
  const [a, b] = [BigInt(left), BigInt(right)];
  const exact = operator === '+' ? a + b : operator === '-' ? a - b : a * b;
  const { name, minimum, maximum } = typeOf(digits);
  if (exact < minimum || exact > maximum) sqlFailure(`Out of Range Error: Overflow in ${words[operator]} of ${name} (${left} ${operator} ${right})!`);
  return unsupportedFeature(`an integer result beyond 2^53 (${exact})`);
}
