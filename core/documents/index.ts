export { reduceHtml } from './reduce-html.ts';
export { documentText, supportedDocumentExtensions } from './document-text.ts';
export { splitDocument, type SplitOptions } from './split-document.ts';
export { approximateTokenCount } from './approximate-token-count.ts';
