import { quoteOccursIn } from '../extraction/quote-occurs-in.ts';
import { pageMarkerLine } from './page-marker.ts';

/** The pages a quote is on: one page, or two when it runs across a page break. */
export interface QuotePages {
  first: number;
  last: number;
}

/**
 * Which page of a paged document's text (one with `pageMarker` lines, as PDFs are read) holds
 * `quote`, matched as the quote check matches it; the first page that does, or the first two
 * consecutive pages that do together. Null for text without page markers and for a quote that is
 * not in it.
 */
export function pageOfQuote(text: string, quote: string): QuotePages | null {
  const pages: { page: number; text: string }[] = [];
  let previousEnd = 0;
  let previousPage: number | undefined;
  for (const match of text.matchAll(pageMarkerLine)) {
    if (previousPage !== undefined) pages.push({ page: previousPage, text: text.slice(previousEnd, match.index) });
    previousPage = Number(match[1]);
    previousEnd = match.index + match[0].length;
  }
  if (previousPage === undefined) return null;
  pages.push({ page: previousPage, text: text.slice(previousEnd) });
  for (const { page, text: pageText } of pages) {
    if (quoteOccursIn(quote, pageText)) return { first: page, last: page };
  }
  for (let index = 1; index < pages.length; index += 1) {
    if (quoteOccursIn(quote, `${pages[index - 1]!.text}\n${pages[index]!.text}`)) return { first: pages[index - 1]!.page, last: pages[index]!.page };
  }
  return null;
}
