import { unsupportedFeature } from '../unsupported-feature.ts';
import { parseDecimalText } from './parse-decimal-text.ts';

const int64Limit = BigInt(2) ** BigInt(63);

/**
 * Text to BIGINT as DuckDB casts it (TrySimpleIntegerCast): spaces around, a sign, `1_000`,
 * `0x1F` and `0b101` (no sign, no spaces after), and a fraction rounded half away from zero on its
 * first digit ('1.54' is 2, '0.' is 0), which is what
 * DuckDB's DECIMAL reader does at scale 0. An exponent takes a third reader in DuckDB, with its own
 * rounding, so text with one is refused rather than read differently. Undefined when DuckDB
 * cannot convert the text.
 */
export function parseIntegerText(text: string): number | undefined {
  const hexadecimal = /^[ \t\n\v\f\r]*0[xX]([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)$/.exec(text);
  if (hexadecimal) {
    const value = BigInt(`0x${hexadecimal[1]!.replace(/_/g, '')}`);
    return value < int64Limit ? Number(value) : undefined;
  }
  const binary = /^[ \t\n\v\f\r]*0[bB]([01]+(?:_[01]+)*)$/.exec(text);
  if (binary) {
    const value = BigInt(`0b${binary[1]!.replace(/_/g, '')}`);
    return value < int64Limit ? Number(value) : undefined;
  }
  const value = parseDecimalText(text, 38, 0);
  if (value === undefined || value >= int64Limit || value < -int64Limit) return undefined;
  if (/[eE]/.test(text)) unsupportedFeature(`casting text with an exponent ('${text}') to an integer`);
  return Number(value);
}
