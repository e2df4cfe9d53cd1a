import { sqlFailure } from '../sql-failure.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';
import { castSqlValue } from '../values/cast-sql-value.ts';
import { formatSqlValue } from '../values/format-sql-value.ts';
import { parseDateText, SqlDate, type RuntimeValue } from '../values/sql-runtime-value.ts';

/** A numeric argument of `name`: text is cast to DOUBLE, booleans count as 0 and 1. */
export function numberArgument(value: RuntimeValue, name: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') return castSqlValue(value, 'VARCHAR', 'DOUBLE', false) as number;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return sqlFailure(`Binder Error: No function matches ${name}(${value instanceof SqlDate ? 'DATE' : 'INTERVAL'}); it takes a number`);
}

/** A text argument: any value as DuckDB casts it to VARCHAR. */
export function textArgument(value: RuntimeValue, type: SqlType): string {
  return formatSqlValue(value, type) ?? '';
}

/** A DATE argument of `name`: text in 'YYYY-MM-DD' form is cast. */
export function dateArgument(value: RuntimeValue, name: string): SqlDate {
  if (value instanceof SqlDate) return value;
  if (typeof value === 'string') return parseDateText(value);
  return sqlFailure(`Binder Error: No function matches ${name}(${typeof value === 'number' ? 'number' : typeof value}); it takes a DATE`);
}
