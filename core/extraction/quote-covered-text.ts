import { longestElision } from './quote-occurs-in.ts';
import { quoteParts } from './quote-parts.ts';

/** How long the covered text of an elided quote may be: more is not one passage any more. */
export const longestCoveredText = 2 * longestElision;

/** How many places of its first passage are tried. */
const mostStarts = 8;

/** A text's words (runs of letters and digits), lower-cased, with where each starts and ends. */
interface TextWords {
  text: string;
  words: string[];
  starts: number[];
  ends: number[];
}

/** The last document's words: the quotes of one reply are checked against the same document in turn. */
let lastWords: TextWords | undefined;

function textWords(text: string): TextWords {
  if (lastWords?.text === text) return lastWords;
  const words: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    words.push(fold(match[0]));
    starts.push(match.index);
    ends.push(match.index + match[0].length);
  }
  return (lastWords = { text, words, starts, ends });
}

/** A word as compared: lower case, the final sigma as any sigma (as a case-insensitive match reads them). */
function fold(word: string): string {
  return word.toLowerCase().replace(/ς/g, 'σ');
}

/**
 * Where a passage of `words` occurs at word `index`, or undefined: its first word ends a document
 * word, its middle words are whole words, its last word starts one (a passage of one word may be
 * any part of a word). Offsets are the document's own.
 */
function passageAt(document: TextWords, index: number, words: string[]): { start: number; end: number } | undefined {
  const last = words.length - 1;
  if (index + last >= document.words.length) return undefined;
  const first = document.words[index]!;
  if (last === 0) {
    const at = first.indexOf(words[0]!);
    if (at < 0) return undefined;
    const exact = first.length === document.ends[index]! - document.starts[index]!;
    return exact ? { start: document.starts[index]! + at, end: document.starts[index]! + at + words[0]!.length } : { start: document.starts[index]!, end: document.ends[index]! };
  }
  if (!first.endsWith(words[0]!)) return undefined;
  for (let offset = 1; offset < last; offset += 1) if (document.words[index + offset] !== words[offset]) return undefined;
  const final = document.words[index + last]!;
  if (!final.startsWith(words[last]!)) return undefined;
  const firstExact = first.length === document.ends[index]! - document.starts[index]!;
  const finalExact = final.length === document.ends[index + last]! - document.starts[index + last]!;
  return {
    start: firstExact ? document.ends[index]! - words[0]!.length : document.starts[index]!,
    end: finalExact ? document.starts[index + last]! + words[last]!.length : document.ends[index + last]!,
  };
}

/** The first place of a passage that starts at or after `from`, searching from word `index`. */
function nextPassage(document: TextWords, words: string[], from: number, index = 0): { start: number; end: number; index: number } | undefined {
  for (let at = index; at < document.words.length; at += 1) {
    if (document.ends[at]! <= from) continue;
    const found = passageAt(document, at, words);
    if (found && found.start >= from) return { ...found, index: at };
  }
  return undefined;
}

/**
 * The document's own text that an elided quote covers, from the start of its first passage to the
 * end of its last ("Current role: Software … at Northwind Traders." covers "Current role: Software
 * Engineer at Northwind Traders."), or undefined when the passages are not found in order, each
 * within `longestElision` characters of the one before, or the whole is longer than
 * `longestCoveredText`. Passages are found word by word, so case, punctuation and spacing may
 * differ, as in `quoteOccursIn`; what the elision stood for is read as the document writes it.
 * The document's words are read once for the quotes checked against it in turn.
 */
export function quoteCoveredText(documentText: string, quote: string): string | undefined {
  const passages = quoteParts(quote).map((passage) => (passage.match(/[\p{L}\p{N}]+/gu) ?? []).map(fold)).filter((words) => words.length > 0);
  if (passages.length < 2) return undefined;
  const document = textWords(documentText);
  const [first, ...rest] = passages;
  let from = 0;
  let wordIndex = 0;
  for (let tries = 0; tries < mostStarts; tries += 1) {
    const match = nextPassage(document, first!, from, wordIndex);
    if (!match) return undefined;
    const { start } = match;
    let end = match.end;
    for (const words of rest) {
      const next = nextPassage(document, words, end, match.index);
      end = next && next.start - end <= longestElision ? next.end : -1;
      if (end < 0) break;
    }
    if (end >= 0 && end - start <= longestCoveredText) return documentText.slice(start, end);
    from = start + 1;
    wordIndex = match.index;
  }
  return undefined;
}
