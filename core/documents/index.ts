export { reduceHtml } from './reduce-html.ts';
export { documentText, supportedDocumentExtensions } from './document-text.ts';
export { splitDocument, type SplitOptions } from './split-document.ts';
export { approximateTokenCount } from './approximate-token-count.ts';
export { expandTableSpans, type GridRow, type SpanningCell, type SpanningRow } from './expand-table-spans.ts';
export { pageMarker, pageMarkerLine, withoutPageMarkers } from './page-marker.ts';
export { pdfPagesText, type PdfTextRun } from './pdf-pages-text.ts';
export { pageOfQuote, type QuotePages } from './page-of-quote.ts';
export { tokenCeiling } from './token-ceiling.ts';
