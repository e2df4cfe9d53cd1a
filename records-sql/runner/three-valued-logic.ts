import { castSqlValue } from '../values/cast-sql-value.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';

/** SQL truth: TRUE, FALSE or NULL (unknown); a number or decimal is true when not 0, text is cast as DuckDB casts it. */
export function toBoolean(value: RuntimeValue): boolean | null {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (value instanceof SqlDecimal) return value.unscaled !== BigInt(0);
  return castSqlValue(value, 'VARCHAR', 'BOOLEAN', false) as boolean;
}

export function and(left: boolean | null, right: boolean | null): boolean | null {
  if (left === false || right === false) return false;
  if (left === null || right === null) return null;
  return true;
}

export function or(left: boolean | null, right: boolean | null): boolean | null {
  if (left === true || right === true) return true;
  if (left === null || right === null) return null;
  return false;
}

export function not(value: boolean | null): boolean | null {
  return value === null ? null : !value;
}
