import type { FoldedDocument } from './quote-in-document.ts';

/** How far a sentence may run on either side of a quote: a list without full stops is one long "sentence". */
const mostCharactersAround = 300;

/** A sentence of a folded document: its text, where it starts, and where its clauses end (offsets into `text`). */
export interface FoldedSentence {
  text: string;
  offset: number;
  clauseEnds: readonly number[];
}

/**
 * The folded sentence or line a span of the folded document sits in (from the sentence end before
 * it to the one after it, at most `mostCharactersAround` characters beyond the span on each side,
 * cut at a space), where it starts in the document, and its clause ends.
 */
export function sentenceAround(document: FoldedDocument, span: { start: number; end: number }): FoldedSentence {
  const { text, sentenceEnds, clauseEnds } = document;
  const before = firstAtLeast(sentenceEnds, span.start + 1) - 1;
  const after = firstAtLeast(sentenceEnds, span.end);
  let start = before >= 0 ? sentenceEnds[before]! : 0;
  let end = after < sentenceEnds.length ? sentenceEnds[after]! : text.length;
  if (span.start - start > mostCharactersAround) start = text.indexOf(' ', span.start - mostCharactersAround) + 1 || span.start;
  if (end - span.end > mostCharactersAround) end = Math.max(span.end, text.lastIndexOf(' ', span.end + mostCharactersAround));
  while (text[start] === ' ' && start < span.start) start += 1;
  // Made with its first element, or shared and frozen when the sentence has no clause end (a line of a list, the usual sentence).
  let clauses: number[] | undefined;
  for (let at = firstAtLeast(clauseEnds, start); at < clauseEnds.length && clauseEnds[at]! <= end; at += 1) {
    if (clauses === undefined) clauses = [clauseEnds[at]! - start];
    else clauses.push(clauseEnds[at]! - start);
  }
  return { text: text.slice(start, end), offset: start, clauseEnds: clauses ?? noClauseEnds };
}

const noClauseEnds: readonly number[] = Object.freeze([]);

/** The index of the first of the ascending `values` that is at least `bound` (their length when none is). */
function firstAtLeast(values: readonly number[], bound: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (values[middle]! < bound) low = middle + 1;
    else high = middle;
  }
  return low;
}
