import { normalizeWhitespace } from './text-matching.ts';

/** A number the document states in another sentence, as a model would answer it by mistake. */
export interface DecoyValue {
  /** The number as the document writes it ("$2.3M", "7", "2019"). */
  value: string;
  /** The sentence or line it is in, as written (without a list marker). */
  quote: string;
}

/** The kind of number a written value is: a decoy is of the same kind, or a model would not mistake it. */
type Shape = 'currency' | 'length' | 'percent' | 'year' | 'plain';

const numberWordList = 'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty';
/** A number as documents write it: a currency before it, groups and decimals, a magnitude and a unit after it. */
const writtenNumber = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])(?:(?:US\$|\$|€|£|USD |EUR )\s?)?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\b(?:${numberWordList})\b)`
  + String.raw`(?:\s?(?:million|billion|thousand|bn|M|k)\b)?(?:\s?(?:km|m|%|USD|dollars|euros)(?![\p{L}\p{N}]))?`,
  'giu',
);
const monthNames = /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:tember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)$/i;

function shapeOf(written: string): Shape {
  if (/[$€£]|\b(?:USD|EUR|dollars?|euros?)\b/i.test(written)) return 'currency';
  if (/%/.test(written)) return 'percent';
  if (/\d\s?(?:km|m)$/.test(written)) return 'length';
  if (/^\d{4}$/.test(written.trim()) && Number(written) >= 1800 && Number(written) <= 2100) return 'year';
  return 'plain';
}

/** The digits of a written number, without groups: "$1,234.50" → "1234.50". */
function digitsOf(written: string): string {
  return /\d[\d,]*(?:\.\d+)?/.exec(written)?.[0].replace(/,/g, '') ?? written.toLowerCase();
}

/** The document's sentences and lines, headings left out: a decoy is said about something, not a title. */
function sentencesOf(documentText: string): string[] {
  return documentText.split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'))
    .flatMap((line) => line.replace(/^\s*(?:[-*•]|\d+\.)\s+/, '').split(/(?<=[.!?])\s+(?=[A-Z0-9$€£])/))
    .map((sentence) => sentence.trim())
    .filter(Boolean);
}

/**
 * A number of the same kind as the true value (`written`, as the document writes it, or the value
 * itself when it was derived) that the document states in a sentence other than the true quote's,
 * with that sentence as its quote; `choice` picks among them. Undefined when there is none: the
 * model then has nothing to mistake. Not a number inside a date ("March 12") or a time ("15:00"),
 * and never the true value's own number.
 */
export function decoyValue(documentText: string, trueQuote: string, written: string, choice: number): DecoyValue | undefined {
  const shape = shapeOf(written);
  const trueDigits = digitsOf(written);
  const quoted = normalizeWhitespace(trueQuote);
  const candidates: DecoyValue[] = [];
  for (const sentence of sentencesOf(documentText)) {
    const normalized = normalizeWhitespace(sentence);
    if (normalized.includes(quoted) || quoted.includes(normalized)) continue;
    for (const match of sentence.matchAll(writtenNumber)) {
      const value = match[0].trim();
      const before = sentence.slice(0, match.index).trim().split(/\s+/).at(-1) ?? '';
      const after = sentence.slice(match.index + match[0].length).trim().split(/[\s,]+/)[0] ?? '';
      if (monthNames.test(before.replace(/\W/g, '')) || monthNames.test(after.replace(/\W/g, ''))) continue;
      // A time of day ("15:00") is not a quantity of anything.
      if (/^:\d/.test(sentence.slice(match.index + match[0].length)) || /\d:$/.test(sentence.slice(0, match.index))) continue;
      if (shapeOf(value) !== shape || digitsOf(value) === trueDigits) continue;
      candidates.push({ value, quote: sentence });
    }
  }
  return candidates.length ? candidates[choice % candidates.length] : undefined;
}
