import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { normalizeNumber } from './normalize-number.ts';
import { decimalLiteralPattern } from './read-decimal-literal.ts';
import { mayStartNumberWordsAt, replaceNumberWords } from './replace-number-words.ts';
import { isAscii } from '../text/is-ascii.ts';

/** A number a text states, normalized for a column, and the words it was read from. */
export interface NumberInText {
  written: string;
  value: number;
  /** Where the number's digits (or number words) start and end in the text, without what was read around them. */
  start: number;
  end: number;
}

/** A number a text states that does not fit the column (another currency, another dimension). */
export interface RefusedNumberInText {
  written: string;
  reason: string;
}

/** Quotation marks and markdown around a number, not part of it ("“2 km”", "**$45**"); an apostrophe that is no digit group mark. */
const aroundNumber = /[“”„‟"«»*_`~]|['‘’](?!(?<=\d['‘’])\d)/g;
const leadingDigits = /^\d+/;
const leadingMinus = /^[-−]/;
const leadingMinusAndSpace = /^[-−]\s*/;
const closingParenthesis = /^\s*\)/;

/** An ASCII digit; false for NaN (outside the text). */
function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Words after a number that can belong to it: "2 hours 30 minutes", "1.2 million USD". */
const mostWordsAfter = 4;
/** Where a number's words end: a clause break. */
const clauseEnd = /[;|\n]|[.,:!?](?=\s|$)/;
/** What may stand before a number and belong to it: a sign, a currency symbol or code, "(". */
const prefixPattern = /[-−+]?\s*(?:(?:[a-z]{1,3})?\p{Sc}|\b[a-z]{2,3}\.?)?\s*[-−+]?\s*$/iu;

/**
 * Every number a text states (digits or English number words), each read as `normalizeValue`
 * reads a value for `attribute`: "Distance to center: 2 km" states 2000 in a metres column,
 * "Revenue was $1.2 million" states 1.2 in a column of millions of USD. Each number is read with
 * as many of the words around it as make a reading (a currency before it, a unit or magnitude after
 * it, up to a clause break), longest first, so "5.1k" is 5,100 and never 5.1. Numbers inside other
 * numbers ("234" of "1,234") are not read on their own.
 */
export function numbersInText(text: string, attribute: AttributeDefinition): { numbers: readonly NumberInText[]; refused: readonly RefusedNumberInText[] } {
  // The lists are made with their first element (not grown from empty by a push), or not at all:
  // this runs for every quote of a number, and most quotes state one number and refuse none.
  let numbers: NumberInText[] | undefined;
  let refused: RefusedNumberInText[] | undefined;
  // Quotation marks and markdown around a number are not part of it ("“2 km”", "**$45**").
  const written = (isAscii(text) ? text : text.normalize('NFKC')).replace(aroundNumber, ' ');
  const lower = written.toLowerCase();
  let coveredUntil = 0;
  // The starts are found one after the other, not gathered into a list first (see `nextNumberStart`).
  for (let start = nextNumberStart(lower, 0); start >= 0; start = nextNumberStart(lower, resumeAt)) {
    if (start < coveredUntil) continue;
    const literalLength = literalAt(lower, start);
    if (literalLength === 0) continue;
    coveredUntil = start + literalLength;
    const reading = readNumberAt(written, lower, start, literalLength, attribute);
    // Written out, not spread: a spread copy costs more than the rest of the loop.
    if (reading.value !== undefined) {
      const number = { written: reading.written, value: reading.value, start, end: start + literalLength };
      if (numbers === undefined) numbers = [number];
      else numbers.push(number);
    } else if (reading.reason) {
      const refusal = { written: reading.written, reason: reading.reason };
      if (refused === undefined) refused = [refusal];
      else refused.push(refusal);
    }
  }
  return { numbers: numbers ?? noNumbers, refused: refused ?? noRefusals };
}

/** The lists `numbersInText` gives when it finds none: shared, so frozen. */
const noNumbers: readonly NumberInText[] = Object.freeze([]);
const noRefusals: readonly RefusedNumberInText[] = Object.freeze([]);

/**
 * The first position from `from` on where a digit run or an English number word starts, or -1: a
 * digit not after a digit or a mark of a number (`.`, `,`, `'`, `’`, `/`), and a whole word of
 * ASCII letters (between word boundaries, as `\b` sees them) that starts a number phrase. Read
 * by code, one start at a time (a regular expression over every word cost more than reading the
 * numbers it found); `resumeAt` is where the search for the next one goes on.
 */
function nextNumberStart(lower: string, from: number): number {
  for (let index = from; index < lower.length; index += 1) {
    const code = lower.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      if (index === 0 || !isNumberMarkOrDigit(lower.charCodeAt(index - 1))) {
        resumeAt = index + 1;
        return index;
      }
      continue;
    }
    if (!(code >= 97 && code <= 122) || (index > 0 && isWordCode(lower.charCodeAt(index - 1)))) continue;
    let end = index + 1;
    while (end < lower.length && lower.charCodeAt(end) >= 97 && lower.charCodeAt(end) <= 122) end += 1;
    if (end < lower.length && isWordCode(lower.charCodeAt(end))) continue;
    if (mayStartNumberWordsAt(lower, index, end) && replaceNumberWords(lower.slice(index, index + 60)) !== lower.slice(index, index + 60)) {
      resumeAt = end;
      return index;
    }
    index = end - 1;
  }
  return -1;
}

/** Where `nextNumberStart` goes on after the start it gave last: past the digit, or past the word. */
let resumeAt = 0;

/** A character of `\w`: an ASCII letter, digit or underscore. */
function isWordCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 95;
}

/** A digit, or a mark inside a number: `.`, `,`, `'`, `’`, `/`. */
function isNumberMarkOrDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || code === 46 || code === 44 || code === 39 || code === 0x2019 || code === 47;
}

/** The length of the number at `start`: a decimal literal, or the number words `replaceNumberWords` reads. */
function literalAt(lower: string, start: number): number {
  // Matched in place (a sticky copy of the pattern): no copy of the rest of the text, no match object.
  stickyDecimalLiteral.lastIndex = start;
  if (stickyDecimalLiteral.test(lower) && stickyDecimalLiteral.lastIndex > start) return stickyDecimalLiteral.lastIndex - start;
  const rest = lower.slice(start);
  const replaced = replaceNumberWords(rest);
  const digits = leadingDigits.exec(replaced)?.[0] ?? '';
  return digits ? rest.length - (replaced.length - digits.length) : 0;
}

/** `decimalLiteralPattern` without its `^`, matched where `lastIndex` says. */
const stickyDecimalLiteral = new RegExp(decimalLiteralPattern.source.slice(1), 'y');

/** Prefixes already found, by the text before a number: documents repeat their labels ("per night: $"), and the pattern is slow to fail. */
const prefixes = new Map<string, string>();

function prefixOf(before: string): string {
  let prefix = prefixes.get(before);
  if (prefix === undefined) {
    if (prefixes.size >= 2000) prefixes.clear();
    prefixes.set(before, (prefix = prefixPattern.exec(before)?.[0] ?? ''));
  }
  return prefix;
}

function readNumberAt(
  written: string,
  lower: string,
  start: number,
  literalLength: number,
  attribute: AttributeDefinition,
): NumberReading {
  const before = written.slice(Math.max(0, start - 12), start);
  let prefix = prefixOf(before);
  // A dash right after a digit joins a range or a score ("2010-2014", "2-1"): it is no minus sign.
  if (leadingMinus.test(prefix) && isDigitCode(written.charCodeAt(start - prefix.length - 1))) prefix = prefix.replace(leadingMinusAndSpace, '');
  const literalEnd = start + literalLength;
  const afterText = written.slice(literalEnd);
  const clauseEndsAt = afterText.search(clauseEnd);
  const clause = clauseEndsAt < 0 ? afterText : afterText.slice(0, clauseEndsAt);
  // Where each of the first words after the literal ends (up to `mostWordsAfter` + 1 of them), read by
  // code: the readings are tried longest first, then the literal alone.
  // Kept in a list reused from call to call (`wordEnds`): reading a number does not nest.
  let windows = 0;
  for (let at = 0; at < clause.length && windows < mostWordsAfter; ) {
    while (at < clause.length && isSpaceCode(clause.charCodeAt(at))) at += 1;
    if (at >= clause.length) break;
    while (at < clause.length && !isSpaceCode(clause.charCodeAt(at))) at += 1;
    wordEnds[windows++] = at;
  }
  const accounting = written[start - prefix.length - 1] === '(' && closingParenthesis.test(afterText);
  // A reading in another currency or dimension ends the search: "45" alone must not pass for "€45".
  const leads = prefix.trim() ? 2 : 1;
  for (let leadIndex = 0; leadIndex < leads; leadIndex += 1) {
    const lead = leads === 2 && leadIndex === 0 ? prefix : '';
    if (accounting) {
      const reading = readingOf(`(${lead}${written.slice(start, literalEnd)})`, attribute);
      if (reading) return reading;
    }
    for (let window = windows; window >= 0; window -= 1) {
      const end = window === 0 ? 0 : wordEnds[window - 1]!;
      const reading = readingOf(`${lead}${written.slice(start, literalEnd + end)}`.trim(), attribute);
      if (reading) return reading;
    }
  }
  return numberReading(lower.slice(start, literalEnd), undefined, undefined);
}

/** Where the first words after a number's literal end, in its clause (see `readNumberAt`). */
const wordEnds: number[] = [0, 0, 0, 0];

/** `text` read as a number of the column: its value, or why it is another currency's or dimension's; undefined when it is neither. */
function readingOf(text: string, attribute: AttributeDefinition): NumberReading | undefined {
  const result = normalizeNumber(text, attribute);
  if (result.issue === undefined && typeof result.value === 'number') return numberReading(text, result.value, undefined);
  const code = result.issue?.code;
  if (code === 'currency_mismatch' || code === 'unit_mismatch') {
    return numberReading(text, undefined, result.issue!.message.replace(/^[^:]*: "[^"]*" /, '').replace(/; expected .*$/, ''));
  }
  return undefined;
}

/**
 * What reading the words at a number start gave: its `value`, or the `reason` it is another
 * currency's or dimension's, or neither (words that read as no number of the column).
 */
interface NumberReading {
  written: string;
  value: number | undefined;
  reason: string | undefined;
}

/** A `NumberReading` with all its fields, in one order: one object shape for V8, whichever the outcome (three shapes, told apart at each read). */
function numberReading(written: string, value: number | undefined, reason: string | undefined): NumberReading {
  return { written, value, reason };
}

/** What `\S` does not match: whitespace (ASCII by code, any other by the pattern). */
function isSpaceCode(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /\s/.test(String.fromCharCode(code));
}
