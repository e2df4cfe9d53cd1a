import { documentText, pageOfQuote } from '../../../core/index.ts';
import { readDocumentFile } from '../read-document-file.ts';

/**
 * ` (page 3)`, or ` (pages 3–4)` for a quote across a page break: where in a PDF a quote is, found
 * by reading the document again and matching the quote as the quote check does. Empty for other
 * formats, and when the file is gone, changed or unreadable: the note is a convenience, never an error.
 */
export async function quotePageNote(source: string, quote: string): Promise<string> {
  if (!/\.pdf$/i.test(source)) return '';
  let pages;
  try {
    pages = pageOfQuote(documentText(source, await readDocumentFile(source)), quote);
  } catch {
    return '';
  }
  if (!pages) return '';
  return pages.first === pages.last ? ` (page ${pages.first})` : ` (pages ${pages.first}–${pages.last})`;
}
