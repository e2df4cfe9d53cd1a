import { integerDigits } from '../syntax/integer-digits.ts';
import type { DecimalType, Expression, SqlType } from '../syntax/sql-syntax.ts';
import { SqlDecimal } from './sql-decimal.ts';

/** DuckDB's widest DECIMAL: 38 digits (a 128-bit integer). */
export const widestDecimal = 38;

export interface DecimalParts {
  width: number;
  scale: number;
}

export function decimalType(width: number, scale: number): DecimalType {
  return `DECIMAL(${width},${scale})`;
}

const partsByType = new Map<SqlType, DecimalParts | undefined>();

/** The width and scale of a DECIMAL type; undefined for any other type. */
export function decimalParts(type: SqlType): DecimalParts | undefined {
  if (!type.startsWith('DECIMAL')) return undefined;
  let parts = partsByType.get(type);
  if (parts === undefined) {
    const match = /^DECIMAL\((\d+),(\d+)\)$/.exec(type);
    parts = match ? { width: Number(match[1]), scale: Number(match[2]) } : undefined;
    partsByType.set(type, parts);
  }
  return parts;
}

/**
 * The DECIMAL an integer operand becomes when it meets a decimal (DuckDB's GetDecimalProperties):
 * as wide as its integer type (`integerDigits`: an INTEGER 10 digits, a BIGINT 19). The width
 * decides only where DuckDB checks for overflow past 18 digits, never a value.
 */
export function integerAsDecimal(value: number, expression: Expression | undefined): SqlDecimal {
  return new SqlDecimal(BigInt(value), integerDigits(expression), 0);
}
