import { withoutPageMarkers } from '../documents/page-marker.ts';

/**
 * Whether a model's quote occurs in the document after whitespace normalization. Typographic
 * quotes and dashes are folded too, since models often "fix" them when copying; nothing else is,
 * so an invented value does not pass as supported.
 */
export function quoteOccursIn(quote: string, documentText: string): boolean {
  const needle = foldForQuoteMatching(quote);
  if (!needle) return false;
  return foldForQuoteMatching(documentText).includes(needle);
}

/** Page markers (`--- page 2 ---`) are left out on both sides, so a quote may run across a page break. */
export function foldForQuoteMatching(text: string): string {
  return withoutPageMarkers(text)
    .replace(/[\u2018\u2019\u201A\u2032]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u00A0/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
