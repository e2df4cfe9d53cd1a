import { sqlFailure } from '../sql-failure.ts';
import { daysInMonth, SqlDate, type SqlInterval } from '../values/sql-runtime-value.ts';
import { dayOfWeek } from './date-part.ts';

/** A date plus whole months; a day past the end of the new month becomes its last day (Jan 31 + 1 month = Feb 28). */
export function addMonths(value: SqlDate, months: number): SqlDate {
  const { year, month, day } = value.parts;
  const total = year * 12 + (month - 1) + months;
  const newYear = Math.floor(total / 12);
  const newMonth = total - newYear * 12 + 1;
  return SqlDate.fromParts(newYear, newMonth, Math.min(day, daysInMonth(newYear, newMonth)));
}

/** A date plus (sign 1) or minus (sign -1) an interval: its months first, then its days. */
export function addInterval(value: SqlDate, interval: SqlInterval, sign: 1 | -1): SqlDate {
  const shifted = addMonths(value, sign * interval.months);
  return new SqlDate(shifted.days + sign * interval.days);
}

/** DuckDB's date_trunc: the first day of the year, quarter, month, week (Monday) … that holds the date. */
export function dateTruncate(part: string, value: SqlDate): SqlDate {
  const { year, month } = value.parts;
  switch (part.toLowerCase()) {
    case 'year': case 'years': case 'y': return SqlDate.fromParts(year, 1, 1);
    case 'quarter': case 'quarters': return SqlDate.fromParts(year, Math.floor((month - 1) / 3) * 3 + 1, 1);
    case 'month': case 'months': case 'mon': return SqlDate.fromParts(year, month, 1);
    case 'week': case 'weeks': case 'w': return new SqlDate(value.days - ((dayOfWeek(value) + 6) % 7));
    case 'day': case 'days': case 'd': return value;
    case 'decade': return SqlDate.fromParts(Math.floor(year / 10) * 10, 1, 1);
    default: return sqlFailure(`Not implemented Error: date_trunc part "${part}" is not supported`);
  }
}
