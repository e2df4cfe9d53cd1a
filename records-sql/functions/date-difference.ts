import { sqlFailure } from '../sql-failure.ts';
import type { SqlDate } from '../values/sql-runtime-value.ts';
import { dayOfWeek } from './date-part.ts';

/** DuckDB's date_diff: the number of `part` boundaries crossed between the two dates. */
export function dateDifference(part: string, start: SqlDate, end: SqlDate): number {
  const a = start.parts;
  const b = end.parts;
  switch (part.toLowerCase()) {
    case 'day': case 'days': case 'd': case 'dayofyear': case 'doy': case 'dayofweek': case 'dow': return end.days - start.days;
    case 'week': case 'weeks': case 'w': return Math.floor((end.days - (dayOfWeek(end) + 6) % 7) / 7) - Math.floor((start.days - (dayOfWeek(start) + 6) % 7) / 7);
    case 'month': case 'months': case 'mon': return (b.year * 12 + b.month) - (a.year * 12 + a.month);
    case 'quarter': case 'quarters': return (b.year * 4 + Math.floor((b.month - 1) / 3)) - (a.year * 4 + Math.floor((a.month - 1) / 3));
    case 'year': case 'years': case 'y': case 'yr': case 'yrs': return b.year - a.year;
    case 'decade': case 'decades': return Math.floor(b.year / 10) - Math.floor(a.year / 10);
    case 'hour': case 'hours': return (end.days - start.days) * 24;
    case 'minute': case 'minutes': return (end.days - start.days) * 1440;
    case 'second': case 'seconds': return (end.days - start.days) * 86_400;
    default: return sqlFailure(`Not implemented Error: date_diff part "${part}" is not supported`);
  }
}

/** DuckDB's date_sub: whole `part` intervals between the dates. */
export function dateSubtract(part: string, start: SqlDate, end: SqlDate): number {
  const lower = part.toLowerCase();
  if (['month', 'months', 'mon', 'quarter', 'quarters', 'year', 'years', 'y', 'yr', 'yrs'].includes(lower)) {
    const sign = end.days >= start.days ? 1 : -1;
    const [from, to] = sign > 0 ? [start.parts, end.parts] : [end.parts, start.parts];
    let months = (to.year * 12 + to.month) - (from.year * 12 + from.month);
    if (to.day < from.day) months -= 1;
    const divisor = lower.startsWith('q') ? 3 : lower.startsWith('y') ? 12 : 1;
    return sign * Math.trunc(months / divisor);
  }
  if (lower.startsWith('w')) return Math.trunc((end.days - start.days) / 7);
  return dateDifference(part, start, end);
}
