import { isAscii } from '../text/is-ascii.ts';

/** Words a name may gain or lose between the document and the value ("The Ritz" / "Ritz"). */
const stopWords = new Set(['the', 'a', 'an', 'of', 'and', 'in', 'at', 'on', 'for', 'to', 'de', 'la', 'le', 'el']);

/** Lower-case words (letters and digits) without diacritics. */
function wordsOf(text: string): string[] {
  // The same words of an ASCII text, without normalizing it.
  if (isAscii(text)) return asciiWords(text);
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The runs of ASCII letters and digits of an ASCII text, lower-cased: `text.toLowerCase().match(/[a-z0-9]+/g)`, read by code. */
function asciiWords(text: string): string[] {
  const lower = text.toLowerCase();
  const words: string[] = [];
  let start = -1;
  for (let index = 0; index <= lower.length; index += 1) {
    const code = index < lower.length ? lower.charCodeAt(index) : 0;
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
      if (start < 0) start = index;
    } else if (start >= 0) {
      words.push(lower.slice(start, index));
      start = -1;
    }
  }
  return words;
}

/**
 * Whether every word of the lower-case ASCII `value` but the stop words is a word of `quote` (runs
 * of letters and digits, as `asciiWords` reads them), or it has none: the usual case, answered in
 * place, without lists of either's words (see `quoteStatesText`). False says only "not so simply".
 */
function everyContentWordIn(value: string, quote: string): boolean {
  let start = -1;
  for (let index = 0; index <= value.length; index += 1) {
    if (index < value.length && isWordCode(value.charCodeAt(index))) {
      if (start < 0) start = index;
      continue;
    }
    if (start < 0) continue;
    // A stop word has at most three letters: only a word that short is cut out to be looked up.
    if (!(index - start <= 3 && stopWords.has(value.slice(start, index))) && !hasWordAt(quote, value, start, index)) return false;
    start = -1;
  }
  return true;
}

/** Whether `quote` has the word `value` from `start` to `end` as a whole word (no letter or digit on either side). */
function hasWordAt(quote: string, value: string, start: number, end: number): boolean {
  const length = end - start;
  const first = value.charCodeAt(start);
  for (let at = 0; at + length <= quote.length; at += 1) {
    if (quote.charCodeAt(at) !== first || (at > 0 && isWordCode(quote.charCodeAt(at - 1)))) continue;
    if (at + length < quote.length && isWordCode(quote.charCodeAt(at + length))) continue;
    let same = true;
    for (let offset = 1; offset < length && same; offset += 1) same = quote.charCodeAt(at + offset) === value.charCodeAt(start + offset);
    if (same) return true;
  }
  return false;
}

/** A lower-case ASCII letter or a digit: what `asciiWords` keeps. */
function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/**
 * Whether `quote` states the text `value`; null when it does, else the reason. Every word of the
 * value (but "the", "of", "and" and the like) must occur in the quote, in any order ("Laurent,
 * Camille" states "Camille Laurent"), ignoring case, diacritics and punctuation, a plural "s", and
 * the hyphens and spaces inside a compound ("Coca-Cola" / "CocaCola"); an initialism stands for the
 * words it abbreviates, either way ("USA" / "United States of America"). A translated or renamed
 * value ("Lisbon" for "Lisboa") is not stated by the quote and is refused: the quote must show it.
 */
export function quoteStatesText(value: string, quote: string): string | null {
  if (isAscii(value) && isAscii(quote) && everyContentWordIn(value.toLowerCase(), quote.toLowerCase())) return null;
  const valueWords = wordsOf(value);
  const quoteWords = wordsOf(quote);
  const content = valueWords.filter((word) => !stopWords.has(word));
  if (content.length === 0) return null;
  // Every word of the value is a word of the quote, the usual case: stated, whatever the rules below
  // add. Looked up in the list: a quote's words are few, and a set of them cost more than the search.
  if (content.every((word) => quoteWords.includes(word))) return null;
  const present = new Set(quoteWords);
  for (let start = 0; start < quoteWords.length; start += 1) {
    let joined = quoteWords[start]!;
    for (let end = start + 1; end < Math.min(quoteWords.length, start + 4); end += 1) present.add((joined += quoteWords[end]!));
  }
  if (present.has(content.join(''))) return null;
  const quoteInitials = quoteWords.filter((word) => !stopWords.has(word)).map((word) => word[0]).join('');
  const valueInitials = content.map((word) => word[0]).join('');
  const covered = content.map((word) => present.has(word) || present.has(`${word}s`) || (word.endsWith('s') && present.has(word.slice(0, -1)))
    || (word.length >= 2 && /^\p{L}+$/u.test(word) && quoteInitials.includes(word)));
  for (const word of present) {
    if (word.length < 2 || !/^\p{L}+$/u.test(word)) continue;
    for (let at = valueInitials.indexOf(word); at >= 0; at = valueInitials.indexOf(word, at + 1)) covered.fill(true, at, at + word.length);
  }
  const missing = content.filter((_, index) => !covered[index]);
  return missing.length === 0 ? null : `the quote does not contain ${missing.map((word) => JSON.stringify(word)).join(', ')}`;
}
