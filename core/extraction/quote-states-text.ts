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
 * Whether `quote` states the text `value`; null when it does, else the reason. Every word of the
 * value (but "the", "of", "and" and the like) must occur in the quote, in any order ("Laurent,
 * Camille" states "Camille Laurent"), ignoring case, diacritics and punctuation, a plural "s", and
 * the hyphens and spaces inside a compound ("Coca-Cola" / "CocaCola"); an initialism stands for the
 * words it abbreviates, either way ("USA" / "United States of America"). A translated or renamed
 * value ("Lisbon" for "Lisboa") is not stated by the quote and is refused: the quote must show it.
 */
export function quoteStatesText(value: string, quote: string): string | null {
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
