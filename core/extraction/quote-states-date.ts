import { monthNumbers } from '../normalization/month-numbers.ts';

/**
 * Whether `quote` states the calendar date `value` (YYYY-MM-DD); null when it does, else the
 * reason. A numeric date in the quote ("05.03.2021", "2021-03-05", "3/5/2021") must read as the
 * value in one of its possible orders (the model may settle what the text leaves open). Otherwise
 * the quote must name the day and the month ("from 13 to 30 July 1930" states 1930-07-13 and
 * 1930-07-30), and the year unless the quote names no year at all: a page often gives the year
 * once, in its title, and the schema may tell the model to take it from there.
 */
export function quoteStatesDate(value: string, quote: string): string | null {
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const text = quote.normalize('NFKC').toLowerCase();
  for (const match of text.matchAll(/(?<!\d)(\d{1,4})([./-])(\d{1,2})\2(\d{1,4})(?!\d)/g)) {
    const [first, second, third] = [Number(match[1]), Number(match[3]), Number(match[4])];
    const readings = match[1]!.length === 4 ? [[first, second, third]] : [[third, second, first], [third, first, second]];
    if (readings.some(([y, m, d]) => y === year && m === month && d === day)) return null;
  }
  const words = text.replace(/(\d)(?:st|nd|rd|th)\b/g, '$1').split(/[^a-z0-9]+/).filter(Boolean);
  const months = words.filter((word) => monthNumbers.has(word)).map((word) => monthNumbers.get(word));
  const days = words.filter((word) => /^\d{1,2}$/.test(word)).map(Number);
  const years = words.filter((word) => /^\d{4}$/.test(word)).map(Number);
  const missing = [
    days.includes(day) ? undefined : `day ${day}`,
    months.includes(month) ? undefined : `month ${month}`,
    years.length === 0 || years.includes(year) ? undefined : `year ${year}`,
  ].filter(Boolean);
  return missing.length === 0 ? null : `the quote does not state ${value} (no ${missing.join(', ')} in it)`;
}
