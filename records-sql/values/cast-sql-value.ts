import { SragError } from '../sql-engine-port.ts';
import { formatSqlValue } from './format-sql-value.ts';
import { parseDateText, SqlDate, SqlInterval, type RuntimeValue } from './sql-runtime-value.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';
import { castToDecimal, scaleDown } from './cast-to-decimal.ts';
import { decimalParts } from './decimal-type.ts';
import { parseIntegerText } from './parse-integer-text.ts';
import { SqlDecimal } from './sql-decimal.ts';

// DuckDB's TryDoubleCast: spaces around (ASCII only), a '+' it skips, then fast_float's number:
// a sign, digits with single underscores between them, a fraction, an exponent; or inf, infinity, nan.
const doubleText = /^[ \t\n\v\f\r]*\+?(-?(?:[0-9]+(?:_[0-9]+)*(?:\.(?:[0-9]+(?:_[0-9]+)*)?)?|\.[0-9]+(?:_[0-9]+)*)(?:[eE][+-]?[0-9]+(?:_[0-9]+)*)?)[ \t\n\v\f\r]*$/;
const specialDoubleText = /^[ \t\n\v\f\r]*\+?(-?)(inf|infinity|nan)[ \t\n\v\f\r]*$/i;

/** Text to DOUBLE as DuckDB reads it; undefined when DuckDB cannot. */
function parseDoubleText(text: string): number | undefined {
  const number = doubleText.exec(text);
  if (number) return Number(number[1]!.replace(/_/g, ''));
  const special = specialDoubleText.exec(text);
  if (!special) return undefined;
  if (special[2]!.toLowerCase() === 'nan') return NaN;
  return special[1] ? -Infinity : Infinity;
}

const trueWords = new Set(['true', 't', '1', 'yes', 'y', 'on']);
const falseWords = new Set(['false', 'f', '0', 'no', 'n', 'off']);
const typeLabels: Partial<Record<SqlType, string>> = { INTEGER: 'INT64', DOUBLE: 'DOUBLE', BOOLEAN: 'BOOL', DATE: 'DATE' };

/**
 * CAST and `::` with DuckDB's rules (DOUBLE → INTEGER rounds half to even, DECIMAL → INTEGER half
 * away from zero, anything → DECIMAL as `castToDecimal`); TRY_CAST gives NULL instead of failing.
 */
export function castSqlValue(value: RuntimeValue, fromType: SqlType, toType: SqlType, tryCast: boolean): RuntimeValue {
  if (value === null) return null;
  const fail = (): never => {
    if (tryCast) throw tryCastFailure;
    const text = formatSqlValue(value, fromType);
    throw new SragError({
      code: 'SQL_FAILED',
      message: typeof value === 'string'
        ? `Conversion Error: Could not convert string '${text}' to ${typeLabels[toType] ?? toType}`
        : `Conversion Error: Unimplemented type for cast (${value instanceof SqlDecimal ? value.sqlType : fromType} -> ${toType})`,
    });
  };
  try {
    const decimal = decimalParts(toType);
    if (decimal) return castToDecimal(value, fromType, decimal.width, decimal.scale);
    if (value instanceof SqlDecimal) return castDecimal(value, toType) ?? fail();
    switch (toType) {
      case 'VARCHAR': return formatSqlValue(value, fromType);
      case 'INTEGER': {
        if (typeof value === 'number') {
          const rounded = Number.isInteger(value) ? value : roundHalfEven(value);
          if (!(rounded >= -(2 ** 63) && rounded < 2 ** 63)) throw new SragError({ code: 'SQL_FAILED', message: `Conversion Error: Type DOUBLE with value ${formatSqlValue(value, 'DOUBLE')} can't be cast because the value is out of range for the destination type INT64` });
          return rounded;
        }
        if (typeof value === 'boolean') return value ? 1 : 0;
        if (typeof value === 'string') return parseIntegerText(value) ?? fail();
        return fail();
      }
      case 'DOUBLE': {
        if (typeof value === 'number') return value;
        if (typeof value === 'boolean') return value ? 1 : 0;
        if (typeof value === 'string') return parseDoubleText(value) ?? fail();
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
    // TRY_CAST turns a failed conversion into NULL, never a refusal: that would be a different answer.
    if (tryCast && !(error instanceof Error && error.message.startsWith('Not implemented Error'))) return null;
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

const int64Limit = BigInt(2) ** BigInt(63);

/** A DECIMAL to another type, as DuckDB casts it; undefined where DuckDB has no such cast. */
function castDecimal(value: SqlDecimal, toType: SqlType): RuntimeValue | undefined {
  switch (toType) {
    case 'VARCHAR': return value.toString();
    case 'DOUBLE': return value.toDouble();
    case 'BOOLEAN': return value.unscaled !== BigInt(0);
    case 'INTEGER': {
      const rounded = value.scale === 0 ? value.unscaled : scaleDown(value.unscaled, value.scale, 0);
      if (rounded >= int64Limit || rounded < -int64Limit) throw new SragError({ code: 'SQL_FAILED', message: `Conversion Error: Failed to cast decimal value ${rounded} to type INT64` });
      return Number(rounded);
    }
    default: return toType === 'UNKNOWN' || toType === 'NULL' ? value : undefined;
  }
}
