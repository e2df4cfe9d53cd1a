import { SragError } from '../sql-engine-port.ts';
import { formatSqlValue } from './format-sql-value.ts';
import { parseDateText, SqlDate, SqlInterval, type RuntimeValue } from './sql-runtime-value.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';

const trueWords = new Set(['true', 't', '1', 'yes', 'y', 'on']);
const falseWords = new Set(['false', 'f', '0', 'no', 'n', 'off']);
const typeLabels: Partial<Record<SqlType, string>> = { INTEGER: 'INT64', DOUBLE: 'DOUBLE', BOOLEAN: 'BOOL', DATE: 'DATE' };

/** CAST and `::` with DuckDB's rules (DOUBLE → INTEGER rounds half to even); TRY_CAST gives NULL instead of failing. */
export function castSqlValue(value: RuntimeValue, fromType: SqlType, toType: SqlType, tryCast: boolean): RuntimeValue {
  if (value === null) return null;
  const fail = (): never => {
    if (tryCast) throw tryCastFailure;
    const text = formatSqlValue(value, fromType);
    throw new SragError({
      code: 'SQL_FAILED',
      message: typeof value === 'string'
        ? `Conversion Error: Could not convert string '${text}' to ${typeLabels[toType] ?? toType}`
        : `Conversion Error: Unimplemented type for cast (${fromType} -> ${toType})`,
    });
  };
  try {
    switch (toType) {
      case 'VARCHAR': return formatSqlValue(value, fromType);
      case 'INTEGER': {
        if (typeof value === 'number') return Number.isInteger(value) ? value : roundHalfEven(value);
        if (typeof value === 'boolean') return value ? 1 : 0;
        if (typeof value === 'string' && /^\s*[+-]?[0-9]+\s*$/.test(value)) return Number(value);
        return fail();
      }
      case 'DOUBLE': {
        if (typeof value === 'number') return value;
        if (typeof value === 'boolean') return value ? 1 : 0;
        if (typeof value === 'string') {
          const trimmed = value.trim().toLowerCase();
          if (/^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:e[+-]?[0-9]+)?$/.test(trimmed)) return Number(trimmed);
          if (trimmed === 'inf' || trimmed === 'infinity') return Infinity;
          if (trimmed === '-inf' || trimmed === '-infinity') return -Infinity;
          if (trimmed === 'nan') return NaN;
        }
        return fail();
      }
      case 'BOOLEAN': {
        if (typeof value === 'boolean') return value;
        if (typeof value === 'number') return value !== 0;
        if (typeof value === 'string') {
          const word = value.trim().toLowerCase();
          if (trueWords.has(word)) return true;
          if (falseWords.has(word)) return false;
        }
        return fail();
      }
      case 'DATE': {
        if (value instanceof SqlDate) return value;
        if (typeof value === 'string') return parseDateText(value);
        return fail();
      }
      case 'INTERVAL':
        if (value instanceof SqlInterval) return value;
        return fail();
      default:
        return value;
    }
  } catch (error) {
    if (tryCast) return null;
    throw error;
  }
}

const tryCastFailure = new Error('try_cast failure');

function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const difference = value - floor;
  if (difference > 0.5) return floor + 1;
  if (difference < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
