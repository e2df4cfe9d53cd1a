import { SragError } from '../sql-engine-port.ts';
import type { SqlDecimal } from './sql-decimal.ts';

/** A DATE: whole days since 1970-01-01 (proleptic Gregorian), as DuckDB stores it. */
export class SqlDate {
  constructor(readonly days: number) {}

  get parts(): { year: number; month: number; day: number } {
    return civilFromDays(this.days);
  }

  toString(): string {
    const { year, month, day } = this.parts;
    const yearText = year < 0 ? `-${String(-year).padStart(4, '0')}` : String(year).padStart(4, '0');
    return `${yearText}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  }

  static fromParts(year: number, month: number, day: number): SqlDate {
    return new SqlDate(daysFromCivil(year, month, day));
  }
}

/** An INTERVAL, kept as months and days (the parts date arithmetic needs). */
export class SqlInterval {
  constructor(readonly months: number, readonly days: number) {}

  toString(): string {
    const parts: string[] = [];
    const years = Math.trunc(this.months / 12);
    const months = this.months % 12;
    if (years) parts.push(`${years} year${Math.abs(years) === 1 ? '' : 's'}`);
    if (months) parts.push(`${months} month${Math.abs(months) === 1 ? '' : 's'}`);
    if (this.days || parts.length === 0) parts.push(`${this.days} day${Math.abs(this.days) === 1 ? '' : 's'}`);
    return parts.join(' ');
  }
}

/** A value while a query runs; results leave the engine as `SqlValue` (dates as 'YYYY-MM-DD', decimals as numbers). */
export type RuntimeValue = null | number | string | boolean | SqlDate | SqlInterval | SqlDecimal;

/** 'YYYY-MM-DD' (or a timestamp's date part) → DATE; throws a conversion error otherwise. */
export function parseDateText(text: string): SqlDate {
  const match = /^\s*(-?[0-9]{1,6})-([0-9]{1,2})-([0-9]{1,2})(?:[ T][0-9:.]+(?:[+-][0-9:]+|Z)?)?\s*$/.exec(text);
  if (match) {
    const year = Number(match[1]);
    const month = Number(match[2]);
    const day = Number(match[3]);
    if (month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month)) return SqlDate.fromParts(year, month, day);
  }
  throw new SragError({ code: 'SQL_FAILED', message: `Conversion Error: date field value out of range: "${text}", expected format is (YYYY-MM-DD)` });
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Howard Hinnant's days_from_civil. */
function daysFromCivil(year: number, month: number, day: number): number {
  const shiftedYear = month <= 2 ? year - 1 : year;
  const era = Math.floor(shiftedYear / 400);
  const yearOfEra = shiftedYear - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

function civilFromDays(days: number): { year: number; month: number; day: number } {
  const shifted = days + 719468;
  const era = Math.floor(shifted / 146097);
  const dayOfEra = shifted - era * 146097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36524) - Math.floor(dayOfEra / 146096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthIndex = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthIndex + 2) / 5) + 1;
  const month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}
