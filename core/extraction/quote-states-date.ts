import { monthNumbers } from '../normalization/month-numbers.ts';
import { isAscii } from '../text/is-ascii.ts';
import { isDigits } from '../text/is-digits.ts';

/** Words that may stand between a day and its month: "13 to 30 July", "5th of March". */
const betweenDayAndMonth = new Set(['to', 'and', 'until', 'till', 'through', 'of', 'the']);

/**
 * Whether `quote` states the calendar date `value` (YYYY-MM-DD); null when it does, else the
 * reason. A numeric date in the quote ("05.03.2021", "2021-03-05", "3/5/2021") must read as the
 * value in one of its possible orders (the model may settle what the text leaves open). Otherwise
 * the quote must name the day together with its month, day first ("9 September", "13 to 30 July":
 * the next month after the day, with only numbers and range words between) or month first
 * ("June 17"), and the year unless the quote names no year at all: a page often gives the year
 * once, in its title, and the schema may tell the model to take it from there.
 */
export function quoteStatesDate(value: string, quote: string): string | null {
  // Not split(…).map(Number): calling Number through map cost more than the rest of a short quote's check.
  const parts = value.split('-');
  // Read one by one, not destructured from a list: destructuring steps an iterator, which allocates in V8's interpreter.
  const year = numberAt(parts, 0) as number;
  const month = numberAt(parts, 1) as number;
  const day = numberAt(parts, 2) as number;
  const text = (isAscii(quote) ? quote : quote.normalize('NFKC')).toLowerCase();
  // A numeric date has a ".", "/" or "-" between its numbers: a quote without one has none.
  if (text.includes('.') || text.includes('/') || text.includes('-')) {
    numericDate.lastIndex = 0;
    for (let match = numericDate.exec(text); match !== null; match = numericDate.exec(text)) {
      const first = Number(match[1]);
      const second = Number(match[3]);
      const third = Number(match[4]);
      const stated = match[1]!.length === 4
        ? first === year && second === month && third === day
        : third === year && ((second === month && first === day) || (first === month && second === day));
      if (stated) return null;
    }
  }
  // The runs of letters and digits (a match, not a split: the same words, found faster).
  const words = text.replace(ordinalSuffix, '$1').match(letterOrDigitRuns) ?? [];
  let namesYears = false;
  let namesYear = false;
  let dayWithMonth = false;
  for (let index = 0; index < words.length; index += 1) {
    const word = words[index]!;
    if (isDigits(word, 4, 4)) {
      namesYears = true;
      namesYear ||= Number(word) === year;
    }
    dayWithMonth ||= isDigits(word, 1, 2) && Number(word) === day && monthOfDay(words, index) === month;
  }
  if (dayWithMonth && (!namesYears || namesYear)) return null;
  const missing = [
    dayWithMonth ? undefined : `day ${day} of month ${month}`,
    !namesYears || namesYear ? undefined : `year ${year}`,
  ].filter(Boolean);
  return `the quote does not state ${value} (no ${missing.join(', ')} in it)`;
}

/** A numeric date: "05.03.2021", "2021-03-05", "3/5/2021" (global: read with `exec` from `lastIndex` 0). */
const numericDate = /(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?!\d)/g;
const ordinalSuffix = /(\d)(?:st|nd|rd|th)\b/g;
const letterOrDigitRuns = /[a-z0-9]+/g;

/** The part at `index` as a number, undefined past the end (as destructuring `parts.map(Number)` gives). */
function numberAt(parts: readonly string[], index: number): number | undefined {
  return index < parts.length ? Number(parts[index]) : undefined;
}

/** The month a day number at `index` belongs to: the month word just before it, else the next one. */
function monthOfDay(words: string[], index: number): number | undefined {
  const previous = index > 0 ? monthNumbers.get(words[index - 1]!) : undefined;
  if (previous !== undefined) return previous;
  for (let next = index + 1; next < Math.min(words.length, index + 5); next += 1) {
    const word = words[next]!;
    const month = monthNumbers.get(word);
    if (month !== undefined) return month;
    if (!isDigits(word, 1, 2) && !betweenDayAndMonth.has(word)) return undefined;
  }
  return undefined;
}
