import { longestElision } from './quote-occurs-in.ts';
import { quoteParts } from './quote-parts.ts';

/** How long the covered text of an elided quote may be: more is not one passage any more. */
export const longestCoveredText = 2 * longestElision;

/** How many places of its first passage are tried. */
const mostStarts = 8;

/**
 * The document's own text that an elided quote covers, from the start of its first passage to the
 * end of its last ("Current role: Software … at Northwind Traders." covers "Current role: Software
 * Engineer at Northwind Traders."), or undefined when the passages are not found in order, each
 * within `longestElision` characters of the one before, or the whole is longer than
 * `longestCoveredText`. Passages are found word by word, so case, punctuation and spacing may
 * differ, as in `quoteOccursIn`; what the elision stood for is read as the document writes it.
 */
export function quoteCoveredText(documentText: string, quote: string): string | undefined {
  const patterns = quoteParts(quote).map((passage) => passage.match(/[\p{L}\p{N}]+/gu) ?? []).filter((words) => words.length > 0)
    .map((words) => new RegExp(words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\\p{L}\\p{N}]+'), 'giu'));
  if (patterns.length < 2) return undefined;
  const [first, ...rest] = patterns;
  for (let tries = 0, match = first!.exec(documentText); match && tries < mostStarts; tries += 1, match = first!.exec(documentText)) {
    const start = match.index;
    let end = start + match[0].length;
    for (const pattern of rest) {
      pattern.lastIndex = end;
      const next = pattern.exec(documentText);
      end = next && next.index - end <= longestElision ? next.index + next[0].length : -1;
      if (end < 0) break;
    }
    if (end >= 0 && end - start <= longestCoveredText) return documentText.slice(start, end);
    first!.lastIndex = start + 1;
  }
  return undefined;
}
