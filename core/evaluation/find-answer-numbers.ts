import { decimalLiteralPattern, readDecimalLiteral } from '../normalization/read-decimal-literal.ts';
import { readQuantity } from '../normalization/read-quantity.ts';

/** One number written in an answer, with every value it can stand for. */
export interface AnswerNumber {
  /** The text read, e.g. "$1,160" or "4.7 km". */
  text: string;
  /** Where it starts in the answer. */
  index: number;
  /**
   * The values it can mean, first the number as written: "4.7 km" is 4.7 and 4700 (metres),
   * "45%" is 45 and 0.45, "$1.2M" is 1.2 and 1200000, "6,873" is 6873.
   */
  values: number[];
}

const noUnit = { kind: 'none' } as const;
const currencyBefore = /(?:us\$|[a-z]{1,2}\$|[$€£¥₹]|\b(?:usd|eur|gbp|chf|jpy|cad|aud))\s?$/i;
/** Where the text that can still belong to a number ends: a clause break or another figure. */
const windowEnd = /[;:()\n=÷×*]|,\s|\s[-–—]\s|\.(?:\s|$)|\s(?:and|or|to|vs)\s/;
const isoDate = /\b\d{4}-\d{2}-\d{2}\b/g;

/**
 * Every number an answer writes, in order, read with core's number normalization so that
 * thousands separators, decimal commas, currencies, magnitude words ("1.2 million", "5.1k"),
 * units ("2.5 km") and percentages are understood. Dates (YYYY-MM-DD) and the denominators of
 * scores ("/10", "out of 10") are not numbers of the answer.
 */
export function findAnswerNumbers(answer: string): AnswerNumber[] {
  const text = answer.normalize('NFKC').replace(isoDate, (date) => ' '.repeat(date.length));
  const numbers: AnswerNumber[] = [];
  let position = 0;
  while (position < text.length) {
    const start = text.slice(position).search(/\d/);
    if (start < 0) break;
    const index = position + start;
    const literal = decimalLiteralPattern.exec(text.slice(index))?.[0] ?? text[index]!;
    position = index + literal.length;
    const before = text.slice(Math.max(0, index - 8), index);
    if (/[\p{L}\d_]$/u.test(before) || /\d[.,]$/.test(before)) continue;
    if (/(?:\/\s*|out of\s+)$/i.test(before)) continue;
    const currency = currencyBefore.exec(before)?.[0] ?? '';
    const negative = /(?:^|[^\p{L}\d])[-−]$/u.test(before.slice(0, before.length - currency.length)) ? '-' : '';
    const rest = text.slice(position, position + 40);
    const windowText = `${negative}${currency}${literal}${rest.slice(0, rest.search(windowEnd) < 0 ? rest.length : rest.search(windowEnd))}`;
    const values = readValues(windowText) ?? readValues(`${negative}${currency}${literal}`) ?? plainValue(literal, negative);
    if (values.length === 0) continue;
    numbers.push({ text: `${negative}${currency}${literal}`, index: index - currency.length - negative.length, values });
  }
  return numbers;
}

function readValues(written: string): number[] | undefined {
  const reading = readQuantity(written, noUnit);
  if ('failure' in reading) return undefined;
  const { amount, magnitude, unit } = reading.quantity;
  const scaled = amount * (magnitude ?? 1);
  const values = [amount, scaled];
  if (unit) values.push(scaled * unit.toBase);
  return [...new Set(values.filter(Number.isFinite))];
}

function plainValue(literal: string, negative: string): number[] {
  const value = readDecimalLiteral(literal, { money: false });
  return value === undefined ? [] : [negative ? -value : value];
}
