import { sqlFailure } from '../sql-failure.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';
import { castSqlValue } from '../values/cast-sql-value.ts';
import { formatSqlValue } from '../values/format-sql-value.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import { parseDateText, SqlDate, type RuntimeValue } from '../values/sql-runtime-value.ts';

/** A numeric argument of `name`: text is cast to DOUBLE, booleans count as 0 and 1, a DECIMAL is cast to DOUBLE. */
export function numberArgument(value: RuntimeValue, name: string): number {
  if (typeof value === 'number') return value;
  if (value instanceof SqlDecimal) return value.toDouble();
  if (typeof value === 'string') return castSqlValue(value, 'VARCHAR', 'DOUBLE', false) as number;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return sqlFailure(`Binder Error: No function matches ${name}(${value instanceof SqlDate ? 'DATE' : 'INTERVAL'}); it takes a number`);
}

/**
 * An argument DuckDB declares BIGINT (a count, a position): a whole number, or text it can cast.
 * DuckDB casts neither a DECIMAL, a DOUBLE nor a BOOLEAN to BIGINT implicitly, so `left(s, 2.5)`
 * fails there with a binder error, and fails here with the same one rather than answering.
 */
export function integerArgument(args: RuntimeValue[], types: SqlType[], index: number, name: string): number {
  const value = args[index]!;
  const type = types[index]!;
  if (typeof value === 'string') return castSqlValue(value, 'VARCHAR', 'INTEGER', false) as number;
  if (typeof value === 'number' && type !== 'DOUBLE' && Number.isInteger(value)) return value;
  const typeNames = args.map((argument, position) => (argument instanceof SqlDecimal ? argument.sqlType : typeof argument === 'boolean' ? 'BOOLEAN' : typeof argument === 'string' ? 'VARCHAR' : types[position] === 'UNKNOWN' ? 'DOUBLE' : types[position]));
  return sqlFailure(`Binder Error: No function matches the given name and argument types '${name}(${typeNames.join(', ')})'. You might need to add explicit type casts.`);
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
