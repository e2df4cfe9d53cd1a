import { withoutPageMarkers } from '../documents/page-marker.ts';

/**
 * An accounting negative whose parentheses can only be a sign: an amount with a currency symbol
 * or thousands groups, "(1,234)" or "($ 45.50)". "(2)" is not one: footnotes and list labels look
 * the same.
 */
const accountingNegative = /\((\s*\p{Sc}?\s*)(\d{1,3}(?:,\d{3})+(?:\.\d+)?|(?<=\p{Sc}\s*)\d+(?:\.\d+)?)\s*\)/gu;

/** A character that is not ASCII. */
const nonAsciiCharacter = /[^\x00-\x7f]/;

/** A minus before a currency symbol ("-$45"), moved after it so that it stays next to the digits. */
const signBeforeCurrency = /-\s*(\p{Sc})\s*(?=\d)/gu;

/**
 * Fold a document or a quote to the form quotes are matched in, so that the ways models re-type a
 * passage compare equal while its words and numbers do not:
 * - letter case, diacritics ("Zürich"/"Zurich"), compatibility forms (ligatures, no-break spaces),
 *   typographic quotes and dashes are folded;
 * - punctuation, quotation marks and markdown are dropped to a space, and spaces collapse;
 * - what makes a number is kept: digits, a mark between two digits ("1,234", "9.4/10", "2010-2014"),
 *   a minus sign before a digit, currency symbols and "%" (each as a word of its own, so "US$5" and
 *   "US$ 5" agree); an accounting negative "(1,234)" becomes "-1,234" and "-$45" becomes "$ -45".
 * - page markers (`--- page 2 ---`) are left out, so a quote may run across a page break.
 * Linear in the text; a document is folded once per record. When `breaks` is given, the offsets
 * in the folded text where a line or a sentence ended, and where a clause did (a comma, an opening
 * parenthesis or a dash between spaces), are pushed onto its lists in order (see `isSentenceEnd`):
 * the folded text has no punctuation left to tell where a quote's sentence is.
 */
export function foldQuoteText(text: string, breaks?: { sentenceEnds: number[]; clauseEnds: number[] }): string {
  text = withoutPageMarkers(text);
  // A pattern, not a loop of charCodeAt: a whole page is tested, and the pattern scans it faster.
  const ascii = !nonAsciiCharacter.test(text);
  let folded = (ascii ? text : text.replace(nonAsciiRun, foldNonAscii)).toLowerCase();
  // Each rewrite needs its first character: most quotes have neither.
  if (folded.includes('(')) folded = folded.replace(accountingNegative, '$1-$2');
  if (folded.includes('-') && hasMinusBeforeCurrency(folded)) folded = folded.replace(signBeforeCurrency, '$1-');
  return keepWordsAndNumbers(folded, breaks);
}

/**
 * Whether a text has a "-" followed, after whitespace, by a currency symbol: where
 * `signBeforeCurrency` can match in it. A list's "- " markers are no such place, and looking from
 * each "-" is cheaper than the Unicode pattern's search of the whole page.
 */
function hasMinusBeforeCurrency(text: string): boolean {
  for (let at = text.indexOf('-'); at >= 0; at = text.indexOf('-', at + 1)) {
    let next = at + 1;
    while (next < text.length && isSpace(text.charCodeAt(next), next, text)) next += 1;
    const code = text.charCodeAt(next);
    if (code === 36 || (code >= 128 && currencySymbolAt.test(text.slice(next, next + 2)))) return true;
  }
  return false;
}

/** What `\s` matches: ASCII whitespace by code, any other character by the pattern. */
function isSpace(code: number, index: number, text: string): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return /\s/.test(text[index]!);
}

/** A currency symbol at the start (one code point: a pair of surrogates is read as one, as the `u` pattern does). */
const currencySymbolAt = /^\p{Sc}/u;

/** A run of non-ASCII characters: what NFKD, marks and dashes can change. */
const nonAsciiRun = /[^\x00-\x7f]+/g;

/**
 * A non-ASCII run decomposed (NFKD), without its combining marks, its dashes made hyphens. Run by
 * run, this is the whole text's NFKD: every ASCII character is a starter, so neither decomposition
 * nor the canonical order of marks reaches across one; and a page with a few accented names costs
 * what its names do, not what its whole text did.
 */
function foldNonAscii(run: string): string {
  let folded = foldedRuns.get(run);
  if (folded === undefined) {
    folded = run.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[\u2010-\u2015\u2212]/g, '-');
    if (run.length <= longestRunKept) {
      // Bounded: a page's runs are few ("é", "–", "’"), but a million pages' are not.
      if (foldedRuns.size >= 10_000) foldedRuns.clear();
      foldedRuns.set(run, folded);
    }
  }
  return folded;
}

/**
 * Runs already folded: the same few ("é", "’", "–") recur on every page of a language, and
 * decomposing each again was a third of folding a page with them.
 */
const foldedRuns = new Map<string, string>();
const longestRunKept = 16;

/** Character kinds (plain constants: the hot loop compares small integers). */
const Kind = { Word: 0, Symbol: 1, Mark: 2, Hyphen: 3, Other: 4 } as const;
type Kind = (typeof Kind)[keyof typeof Kind];

/** The kind of each ASCII character; non-ASCII ones are classified by Unicode property. */
const asciiKinds = Uint8Array.from({ length: 128 }, (_, code): Kind => {
  const character = String.fromCharCode(code);
  if (/[a-z0-9A-Z]/.test(character)) return Kind.Word;
  if (character === '$' || character === '%') return Kind.Symbol;
  if (".,:/'".includes(character)) return Kind.Mark;
  return character === '-' ? Kind.Hyphen : Kind.Other;
});

function kindAt(text: string, index: number): Kind {
  const code = text.charCodeAt(index);
  if (code < 128) return asciiKinds[code] as Kind;
  if (Number.isNaN(code)) return Kind.Other;
  const character = text[index]!;
  if (/[\p{L}\p{N}]/u.test(character)) return Kind.Word;
  return /\p{Sc}/u.test(character) ? Kind.Symbol : Kind.Other;
}

/**
 * ASCII words with single spaces between them: characters the loop of `keepWordsAndNumbers` keeps
 * in the run one by one (a word character; a space after one in the run, before another).
 */
const asciiWordRun = /[a-zA-Z0-9]+(?: [a-zA-Z0-9]+)*/y;

function isDigitAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
}

/**
 * One pass over the characters, copying runs of kept ones: words and digits; a number mark between
 * two digits; a hyphen before a digit that is a sign or a range; currency symbols and "%" as words
 * of their own. Everything else becomes one space. (A regular expression per rule, with
 * lookbehinds, was several times slower on a 1 MB document.) The kept runs and symbols are the
 * parts of the result, joined by single spaces once at the end: a string grown by `+=` was a
 * chain of a pair and a slice per part, copied again flat where it was first searched.
 */
function keepWordsAndNumbers(text: string, breaks?: { sentenceEnds: number[]; clauseEnds: number[] }): string {
  let runStart = 0;
  partCount = 0;
  foldedLength = 0;
  // An ASCII character's kind is read from the table in the loop: about a third less per character.
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const kind = code < 128 ? (asciiKinds[code] as Kind) : kindAt(text, index);
    if (kind === Kind.Word) {
      // A run of ASCII words is passed over in one match: what the loop would do character by character.
      if (code < 128) {
        asciiWordRun.lastIndex = index;
        if (asciiWordRun.test(text)) index = asciiWordRun.lastIndex - 1;
      }
      continue;
    }
    // A single space between two kept words stays inside the run: prose is copied in long slices.
    if (code === 32 && index > runStart && kindAt(text, index + 1) === Kind.Word) continue;
    if (kind === Kind.Mark && isDigitAt(text, index - 1) && isDigitAt(text, index + 1)) continue;
    if (kind === Kind.Hyphen && isDigitAt(text, index + 1) && (isDigitAt(text, index - 1) || kindAt(text, index - 1) !== Kind.Word)) continue;
    if (index > runStart) addPart(text.slice(runStart, index));
    if (breaks) {
      const list = isSentenceEnd(text, index) ? breaks.sentenceEnds : isClauseEnd(text, index) ? breaks.clauseEnds : undefined;
      if (list && list[list.length - 1] !== foldedLength) list.push(foldedLength);
    }
    if (kind === Kind.Symbol) addPart(text[index]!);
    runStart = index + 1;
  }
  if (text.length > runStart) addPart(runStart === 0 ? text : text.slice(runStart));
  const folded = partCount === 0 ? '' : partCount === 1 ? firstPart : partCount === 2 ? `${firstPart} ${secondPart}` : parts.slice(0, partCount).join(' ');
  // Not kept past the call: a part may be a slice of a megabyte document, whose list is let go too.
  if (parts.length > mostPartsKept) parts.length = 0;
  else if (partCount > 2) parts.fill('', 0, partCount);
  firstPart = secondPart = '';
  return folded;
}

/**
 * The parts of the text `keepWordsAndNumbers` is folding: the first two alone (a quote is often one
 * or two parts), all of them in a list kept from one text to the next (not grown again for each
 * document, and cut to its use with one copy at the join); how many there are; and the length of
 * their join so far, where a break is recorded. Kept outside the function, not in a closure made
 * per text; folding does not nest.
 */
let firstPart = '';
let secondPart = '';
const parts: string[] = [];
/** A page's parts are a few hundred; the list of a larger document is not kept for the next text. */
const mostPartsKept = 10_000;
let partCount = 0;
let foldedLength = 0;

function addPart(part: string): void {
  if (partCount === 0) firstPart = part;
  else if (partCount === 1) secondPart = part;
  else {
    if (partCount === 2) {
      parts[0] = firstPart;
      parts[1] = secondPart;
    }
    parts[partCount] = part;
  }
  partCount += 1;
  foldedLength = partCount === 1 ? part.length : foldedLength + 1 + part.length;
}

/**
 * A line break, or ".", "!", "?" or ";" before a space or the end. Not the full stop of one letter
 * ("b. 1978", "J. Smith"): an initial or an abbreviation, not the end of what was said.
 */
function isSentenceEnd(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  if (code === 10) return true;
  if (code !== 46 && code !== 33 && code !== 63 && code !== 59) return false;
  const next = text.charCodeAt(index + 1);
  if (!(Number.isNaN(next) || next === 32 || next === 10 || next === 9 || next === 13)) return false;
  return !(code === 46 && kindAt(text, index - 1) === Kind.Word && kindAt(text, index - 2) !== Kind.Word);
}

/**
 * A comma, an opening parenthesis after a number ("73 (2.28 per match)", not "Venue(s)" nor "Net
 * income (loss) | 30"), or a dash between spaces: what is said after it is said of something else
 * than what came before.
 */
function isClauseEnd(text: string, index: number): boolean {
  const character = text[index];
  // Not the comma of a date ("December 31, 2020"), nor the parenthesis of an accounting negative ("(84)").
  if (character === ',') return !(isDigitAt(text, index - 1) && text[index + 1] === ' ' && isDigitAt(text, index + 2));
  if (character === '(') return text[index - 1] === ' ' && /[\d%]/.test(text[index - 2] ?? '') && !/^\(\s*\p{Sc}?\s*[\d.,]+\s*\)/u.test(text.slice(index, index + 24));
  return (character === '-' || character === '\u2013' || character === '\u2014') && text[index - 1] === ' ' && text[index + 1] === ' ';
}
