import { foldQuoteText } from './fold-quote-text.ts';
import type { FoldedDocument, QuoteInDocument } from './quote-in-document.ts';
import { quoteParts } from './quote-parts.ts';

/** The most characters of folded document text an elision may stand for between two passages. */
export const longestElision = 600;

/** Quotes cut into more passages than this are not a quote any more; they are refused. */
const mostPassages = 12;

/**
 * Whether a model's quote occurs in the document, allowing the ways models re-type what they copy
 * (case, punctuation, spacing and line breaks, quotation marks, markdown and list markers; see
 * `foldQuoteText` and `quoteParts`) while refusing text that is not there. An elided quote
 * ("Revenue … 100") matches when its passages occur in order, each at most `longestElision`
 * characters after the previous one. Every passage must start and end on a word boundary, and a
 * number must be whole: "1" does not match inside "1,000" or "-1".
 */
export function quoteOccursIn(quote: string, documentText: string): boolean {
  return quoteMatcher(documentText)(quote);
}

/**
 * `quoteOccursIn` for many quotes of one document: the document is folded once, on the first call.
 * Each check costs one scan of the folded document per passage (`indexOf`), plus a linear pass over
 * a passage's occurrences, however often it occurs.
 */
export function quoteMatcher(documentText: string): (quote: string) => boolean {
  const locate = quoteLocator(documentText, 1);
  return (quote) => locate(quote) !== undefined;
}

/**
 * Where each quote of one document occurs (see `QuoteInDocument`), or undefined where
 * `quoteOccursIn` would say it does not: the same matching, keeping up to `mostSpans` of the
 * places a quote occurs, in the document's order, and the ends of the document's sentences.
 */
export function quoteLocator(documentText: string, mostSpans = 8): (quote: string) => QuoteInDocument | undefined {
  let document: FoldedDocument | undefined;
  return (quote) => {
    const parts = quoteParts(quote);
    // A quote of one passage, the usual one, in a list of one made at once (not grown by a push).
    let passages: string[];
    if (parts.length === 1) {
      const folded = foldQuoteText(parts[0]!);
      passages = folded ? [folded] : [];
    } else {
      passages = [];
      for (let index = 0; index < parts.length; index += 1) {
        const folded = foldQuoteText(parts[index]!);
        if (folded) passages.push(folded);
      }
    }
    if (passages.length === 0 || passages.length > mostPassages) return undefined;
    if (!document) {
      const breaks = { sentenceEnds: [] as number[], clauseEnds: [] as number[] };
      document = { source: documentText, text: foldQuoteText(documentText, breaks), sentenceEnds: breaks.sentenceEnds, clauseEnds: breaks.clauseEnds };
    }
    const spans = passages.length === 1 ? occurrences(document.text, passages[0]!, mostSpans) : passagesOccurInOrder(document.text, passages, mostSpans);
    return spans.length ? { document, spans, passages: passages.length } : undefined;
  };
}

/** The whole matches of `needle`, at most `most`; the list is made when the first is found, with it (most quotes occur once). */
function occurrences(haystack: string, needle: string, most: number): Array<{ start: number; end: number }> {
  let found: Array<{ start: number; end: number }> | undefined;
  for (let start = haystack.indexOf(needle); start >= 0 && (found === undefined || found.length < most); start = haystack.indexOf(needle, start + 1)) {
    if (!isWholeMatch(haystack, start, needle.length)) continue;
    if (found === undefined) found = [{ start, end: start + needle.length }];
    else found.push({ start, end: start + needle.length });
  }
  return found ?? [];
}

/**
 * The spans where every passage occurs after the previous one within `longestElision` characters.
 * The ends reachable after passage k are kept sorted, each with the start of its first passage; an
 * occurrence of passage k + 1 is reachable when the latest reachable end before it is close enough,
 * so each passage costs one sweep.
 */
function passagesOccurInOrder(haystack: string, passages: string[], most: number): Array<{ start: number; end: number }> {
  let reachableEnds: number[] = [];
  let firstStarts: number[] = [];
  for (let index = 0; index < passages.length; index += 1) {
    const passage = passages[index]!;
    const ends: number[] = [];
    const starts: number[] = [];
    let pointer = 0;
    let latestEnd = -Infinity;
    let latestFirstStart = 0;
    for (let start = haystack.indexOf(passage); start >= 0; start = haystack.indexOf(passage, start + 1)) {
      if (!isWholeMatch(haystack, start, passage.length)) continue;
      if (index > 0) {
        while (pointer < reachableEnds.length && reachableEnds[pointer]! <= start) {
          latestEnd = reachableEnds[pointer]!;
          latestFirstStart = firstStarts[pointer++]!;
        }
        if (start - latestEnd > longestElision) continue;
      }
      ends.push(start + passage.length);
      starts.push(index > 0 ? latestFirstStart : start);
    }
    if (ends.length === 0) return [];
    reachableEnds = ends;
    firstStarts = starts;
  }
  return reachableEnds.slice(0, most).map((end, index) => ({ start: firstStarts[index]!, end }));
}

/**
 * A match must not begin or end inside a word or a number: not after a letter or digit, a minus
 * sign or a mark of the same number ("000" of "1,000"), nor end before a mark followed by a digit.
 * A dash between two numbers is a range ("2010-2014"), whose ends may be quoted alone.
 */
function isWholeMatch(haystack: string, start: number, length: number): boolean {
  const end = start + length;
  const before = haystack[start - 1];
  const after = haystack[end];
  if (isWordCharacter(before) && isWordCharacter(haystack[start])) return false;
  if (isWordCharacter(after) && isWordCharacter(haystack[end - 1])) return false;
  // Folding keeps a mark next to a digit only inside a number ("1,000", "9.4/10") or as a sign.
  if (isDigit(haystack[start]) && before !== undefined && before !== ' ') {
    const isRangeDash = before === '-' && isDigit(haystack[start - 2]);
    if (!isRangeDash) return false;
  }
  if (isDigit(haystack[end - 1]) && after !== undefined && after !== ' ' && after !== '-' && isDigit(haystack[end + 1])) return false;
  return true;
}

function isWordCharacter(character: string | undefined): boolean {
  if (character === undefined) return false;
  const code = character.charCodeAt(0);
  if (code < 128) return (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
  return /[\p{L}\p{N}]/u.test(character);
}

function isDigit(character: string | undefined): boolean {
  return character !== undefined && character >= '0' && character <= '9';
}
