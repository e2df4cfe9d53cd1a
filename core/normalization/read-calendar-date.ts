import { monthNumbers } from './month-numbers.ts';
import { isAscii } from '../text/is-ascii.ts';
import { isDigits } from '../text/is-digits.ts';
import { singleSpaced } from '../text/single-spaced.ts';

const isoDate = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[t ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?\s*(?:z|[+-]\d{2}(?::?\d{2})?)?)?$/;
const yearFirstDate = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/;
const yearLastDate = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4})$/;
const ordinalSuffix = /(\d)(?:st|nd|rd|th)\b/g;
const ofOrThe = /\b(?:of|the)\b/g;
const separatedRuns = /[^\s,./-]+/g;
const weekdayPattern = /^(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|sday|urday)?\b[,.]?\s*/;

export type CalendarDateReading = { date: string } | { failure: 'ambiguous' | 'not_a_date'; reason: string };

/**
 * Read a written date as ISO `YYYY-MM-DD` without `Date.parse`, whose free-form behaviour differs
 * between engines. Accepted: ISO dates, with any time part dropped as written (no time-zone shift);
 * year-first "2021/03/05" and "2021.03.05"; day-first "05.03.2021" (dots are never US order);
 * English month names in any order with a day and a four-digit year ("5th of March, 2021",
 * "March 5, 2021", "Fri, 5 Mar 2021"). "03/05/2021" and "03-05-2021" are month-first only when the
 * order cannot matter or the day is > 12 on one side; if both parts are ≤ 12 and differ, the result
 * is `ambiguous`. A year alone, a month and year, two-digit years and impossible calendar days
 * ("2021-02-30") are `not_a_date`: no day is ever invented.
 */
export function readCalendarDate(written: string): CalendarDateReading {
  const text = singleSpaced((isAscii(written) ? written : written.normalize('NFKC')).trim().toLowerCase());
  const iso = isoDate.exec(text) ?? yearFirstDate.exec(text);
  if (iso) return calendarDate(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const yearLast = yearLastDate.exec(text);
  if (yearLast) {
    const [first, second, year] = [Number(yearLast[1]), Number(yearLast[3]), Number(yearLast[4])];
    if (yearLast[2] === '.' || (first > 12 && second <= 12)) return calendarDate(year, second, first);
    if (first !== second && first <= 12 && second <= 12) {
      return { failure: 'ambiguous', reason: 'could be month/day or day/month' };
    }
    return calendarDate(year, first, second);
  }
  const words = text
    .replace(weekdayPattern, '')
    .replace(ordinalSuffix, '$1')
    .replace(ofOrThe, ' ')
    // The runs between separators (a match, not a split: the same words, found faster).
    .match(separatedRuns) ?? [];
  // Counted in one loop, the first of each kind kept: not three filtered lists.
  let months = 0;
  let years = 0;
  let days = 0;
  let month = '';
  let year = '';
  let day = '';
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (monthNumbers.has(word) && months++ === 0) month = word;
    if (isDigits(word, 4, 4) && years++ === 0) year = word;
    if (isDigits(word, 1, 2) && days++ === 0) day = word;
  }
  if (months === 1 && years === 1 && days === 1 && words.length === 3) {
    return calendarDate(Number(year), monthNumbers.get(month) ?? 0, Number(day));
  }
  if (isDigits(text, 4, 4) || (months === 1 && years === 1 && words.length === 2)) {
    return { failure: 'not_a_date', reason: 'has no day' };
  }
  return { failure: 'not_a_date', reason: 'is not a date' };
}

function calendarDate(year: number, month: number, day: number): CalendarDateReading {
  const daysInMonth = month === 2 && isLeapYear(year) ? 29 : monthLengths[month - 1];
  if (year < 1 || daysInMonth === undefined || day < 1 || day > daysInMonth) {
    return { failure: 'not_a_date', reason: 'is not a day of the calendar' };
  }
  return { date: `${padded(year, 4)}-${padded(month, 2)}-${padded(day, 2)}` };
}

/** The days of each month in a common year: a list made once, not per date read (a date is read for its value and again in its quote). */
const monthLengths: readonly number[] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function padded(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
