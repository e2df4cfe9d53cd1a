import type { DuckDBResultReader } from '@duckdb/node-api';
import type { SqlResult, SqlValue } from '../../core/index.ts';

/**
 * A DuckDB result as plain JSON-safe rows: BIGINT and DECIMAL become numbers (strings past 2^53),
 * DATE becomes 'YYYY-MM-DD', nested values become JSON text.
 */
export function readSqlResult(reader: DuckDBResultReader): SqlResult {
  const columns = reader.columnNames();
  const types = reader.columnTypes().map((type) => type.toString());
  const rows = reader.getRowsJson().map((row) => row.map((value, index) => toSqlValue(value, types[index] ?? '')));
  return { columns, rows };
}

/** One value of `getRowsJson` (or a chunk converted the same way) as a `SqlValue`, given its column's type. */
export function toSqlValue(value: unknown, type: string): SqlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' && /^(U?(BIG|HUGE|TINY|SMALL)?INT(EGER)?|DECIMAL.*|U?HUGEINT)$/.test(type)) {
    const number = Number(value);
    return Number.isFinite(number) && (type.startsWith('DECIMAL') || Number.isSafeInteger(number)) ? number : value;
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}
