import type { SqlDate } from '../values/sql-runtime-value.ts';
import { dayOfWeek, dayOfYear, isoWeek } from './date-part.ts';

export const monthNames = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const dayNames = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** DuckDB's strftime for a DATE: `%Y-%m-%d`, names, ISO weeks; time fields are zero. */
export function formatDate(value: SqlDate, pattern: string): string {
  const { year, month, day } = value.parts;
  const two = (number: number) => String(number).padStart(2, '0');
  return pattern.replace(/%(-?)([a-zA-Z%])/g, (whole, noPad: string, code: string) => {
    const pad = (number: number, width = 2) => (noPad ? String(number) : String(number).padStart(width, '0'));
    switch (code) {
      case 'Y': return String(year);
      case 'y': return two(year % 100);
      case 'm': return pad(month);
      case 'd': return pad(day);
      case 'e': return String(day).padStart(2, ' ');
      case 'B': return monthNames[month - 1]!;
      case 'b': case 'h': return monthNames[month - 1]!.slice(0, 3);
      case 'A': return dayNames[dayOfWeek(value)]!;
      case 'a': return dayNames[dayOfWeek(value)]!.slice(0, 3);
      case 'j': return pad(dayOfYear(value), 3);
      case 'w': return String(dayOfWeek(value));
      case 'u': return String(dayOfWeek(value) || 7);
      case 'V': return pad(isoWeek(value).week);
      case 'G': return String(isoWeek(value).year);
      case 'F': return `${year}-${two(month)}-${two(day)}`;
      case 'H': case 'M': case 'S': return '00';
      case '%': return '%';
      default: return whole;
    }
  });
}
