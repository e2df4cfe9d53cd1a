import { supportedDocumentExtensions } from '../../../core/index.ts';
import type { DocumentReadingLimits } from './document-reading-limits.ts';
import { readDocxDocument } from './read-docx-document.ts';
import { readPdfDocument } from './read-pdf-document.ts';

/** Readers of document formats that are not text, by lower-case extension. */
const readers: Readonly<Record<string, (path: string, label: string, limits: DocumentReadingLimits) => Promise<string>>> = {
  '.pdf': readPdfDocument,
  '.docx': readDocxDocument,
};

/** Every extension srag reads under Node: the text formats `documentText` knows, then PDF and Word. */
export const readableDocumentExtensions: readonly string[] = [...supportedDocumentExtensions, ...Object.keys(readers)];

/**
 * The text of a PDF or Word document, ready for `documentText` (which leaves it as it is), or
 * undefined for any other file, which is read as text. Failures are the document's own errors
 * (DOCUMENT_UNREADABLE), naming the file by `label`, as the user sees its path: a scanned PDF, a
 * password, a damaged file, and one past `limits` (read only for such a document when given as a
 * function: reading the environment for every text file cost ~3 µs a file).
 */
export function readParsedDocument(path: string, label: string, limits: DocumentReadingLimits | (() => DocumentReadingLimits)): Promise<string> | undefined {
  const name = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  const reader = dot > 0 ? readers[name.slice(dot).toLowerCase()] : undefined;
  return reader?.(path, label, typeof limits === 'function' ? limits() : limits);
}
