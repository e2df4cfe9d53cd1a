import { SqlDecimal } from './sql-decimal.ts';
import { SqlDate, SqlInterval, type RuntimeValue } from './sql-runtime-value.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';

/**
 * A value cast to VARCHAR as DuckDB writes it: a DOUBLE keeps a decimal point ("300.0") and uses
 * the shortest round-trip digits, switching to exponent form below 1e-4 and from 1e16 ("1e+16");
 * a DECIMAL keeps every digit of its scale ("1.10").
 */
export function formatSqlValue(value: RuntimeValue, type: SqlType): string | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (value instanceof SqlDate || value instanceof SqlInterval || value instanceof SqlDecimal) return value.toString();
  if (typeof value === 'number') return type === 'DOUBLE' ? formatDouble(value) : String(value);
  return value;
}

export function formatDouble(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace('-', '').replace('.', '');
  let text: string;
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      const whole = digits.slice(0, exponent + 1).padEnd(exponent + 1, '0');
      const fraction = digits.slice(exponent + 1);
      text = `${whole}.${fraction || '0'}`;
    } else {
      text = `0.${'0'.repeat(-exponent - 1)}${digits}`;
    }
  } else {
    const sign = exponent < 0 ? '-' : '+';
    text = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return negative ? `-${text}` : text;
}

/**
 * `value.toFixed(places)` with C's rounding: an exact binary tie rounds to the even digit
 * (printf('%.2f', 0.125) is "0.12"), where JavaScript rounds it up.
 */
export function toFixedHalfEven(value: number, places: number): string {
  const rounded = value.toFixed(places);
  const exact = value.toFixed(Math.min(100, places + 60));
  const tail = exact.slice(exact.length - 60);
  if (!/^50*$/.test(tail)) return rounded;
  const truncated = exact.slice(0, exact.length - 60);
  const lastDigit = Number(truncated.replace(/[^0-9]/g, '').slice(-1));
  if (lastDigit % 2 === 0) return places === 0 ? truncated.replace(/\.$/, '') : truncated;
  return rounded;
}
