import { monthNumbers } from '../normalization/month-numbers.ts';
import { isAscii } from '../text/is-ascii.ts';

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
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const text = (isAscii(quote) ? quote : quote.normalize('NFKC')).toLowerCase();
  for (const match of text.matchAll(/(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?!\d)/g)) {
    const [first, second, third] = [Number(match[1]), Number(match[3]), Number(match[4])];
    const readings = match[1]!.length === 4 ? [[first, second, third]] : [[third, second, first], [third, first, second]];
    if (readings.some(([y, m, d]) => y === year && m === month && d === day)) return null;
  }
  const words = text.replace(/(\d)(?:st|nd|rd|th)\b/g, '$1').split(/[^a-z0-9]+/).filter(Boolean);
  const years = words.filter((word) => /^\d{4}$/.test(word)).map(Number);
  const dayWithMonth = words.some((word, index) => /^\d{1,2}$/.test(word) && Number(word) === day && monthOfDay(words, index) === month);
  const missing = [
    dayWithMonth ? undefined : `day ${day} of month ${month}`,
    years.length === 0 || years.includes(year) ? undefined : `year ${year}`,
  ].filter(Boolean);
  return missing.length === 0 ? null : `the quote does not state ${value} (no ${missing.join(', ')} in it)`;
}

/** The month a day number at `index` belongs to: the month word just before it, else the next one. */
function monthOfDay(words: string[], index: number): number | undefined {
  const previous = monthNumbers.get(words[index - 1] ?? '');
  if (previous !== undefined) return previous;
  for (let next = index + 1; next < Math.min(words.length, index + 5); next += 1) {
    const word = words[next]!;
    const month = monthNumbers.get(word);
    if (month !== undefined) return month;
    if (!/^\d{1,2}$/.test(word) && !betweenDayAndMonth.has(word)) return undefined;
  }
  return undefined;
}
