import { sqlFailure } from '../sql-failure.ts';
import { SqlDate } from '../values/sql-runtime-value.ts';

/** 0 for Sunday to 6 for Saturday. */
export function dayOfWeek(value: SqlDate): number {
  return (((value.days + 4) % 7) + 7) % 7;
}

export function dayOfYear(value: SqlDate): number {
  return value.days - SqlDate.fromParts(value.parts.year, 1, 1).days + 1;
}

/** ISO-8601 week number and its year. */
export function isoWeek(value: SqlDate): { week: number; year: number } {
  const isoDay = dayOfWeek(value) || 7;
  const thursday = new SqlDate(value.days + 4 - isoDay);
  const year = thursday.parts.year;
  const week = Math.floor((thursday.days - SqlDate.fromParts(year, 1, 1).days) / 7) + 1;
  return { week, year };
}

/** DuckDB's date_part (and year(), month(), …): one field of a date. */
export function datePart(part: string, value: SqlDate): number {
  const { year, month, day } = value.parts;
  switch (part.toLowerCase()) {
    case 'year': case 'years': case 'y': case 'yr': case 'yrs': return year;
    case 'month': case 'months': case 'mon': return month;
    case 'day': case 'days': case 'd': case 'dayofmonth': return day;
    case 'quarter': case 'quarters': return Math.floor((month - 1) / 3) + 1;
    case 'week': case 'weeks': case 'w': case 'weekofyear': return isoWeek(value).week;
    case 'dayofweek': case 'dow': case 'weekday': return dayOfWeek(value);
    case 'isodow': return dayOfWeek(value) || 7;
    case 'dayofyear': case 'doy': return dayOfYear(value);
    case 'decade': case 'decades': return Math.floor(year / 10);
    case 'century': case 'centuries': return year > 0 ? Math.floor((year - 1) / 100) + 1 : Math.floor(year / 100);
    case 'millennium': return year > 0 ? Math.floor((year - 1) / 1000) + 1 : Math.floor(year / 1000);
    case 'isoyear': return isoWeek(value).year;
    case 'epoch': return value.days * 86_400;
    default: return sqlFailure(`Not implemented Error: date part "${part}" is not supported`);
  }
}

