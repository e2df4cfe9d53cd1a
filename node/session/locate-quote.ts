import { quoteParts } from '../../core/index.ts';

/** Where each passage of a quote is in the document text, for highlighting: [start, end) offsets. */
export interface QuoteSpan {
  start: number;
  end: number;
}

/**
 * The spans of `quote`'s passages in `text`, matched word by word: case, punctuation and spacing
 * may differ, as the quote check allows (see `quoteOccursIn`). A passage found nowhere has no span;
 * the evidence browser then shows the quote beside the text instead. For display only: the quote
 * check, not this, decides whether a value is kept.
 */
export function locateQuote(text: string, quote: string): QuoteSpan[] {
  const spans: QuoteSpan[] = [];
  let from = 0;
  for (const passage of quoteParts(quote)) {
    const words = passage.match(/[\p{L}\p{N}]+/gu);
    if (!words) continue;
    const pattern = new RegExp(words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\\p{L}\\p{N}]+'), 'giu');
    pattern.lastIndex = from;
    const match = pattern.exec(text) ?? (from > 0 ? new RegExp(pattern.source, 'iu').exec(text) : null);
    if (!match) continue;
    spans.push({ start: match.index, end: match.index + match[0].length });
    from = match.index + match[0].length;
  }
  return spans;
}
