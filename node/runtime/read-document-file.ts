import { SragError } from '../../core/index.ts';
import { readDocumentReadingLimits, type DocumentReadingLimits } from './documents/document-reading-limits.ts';
import { readParsedDocument } from './documents/read-document.ts';
import { readTextFile, readTextFileSync } from './read-text-file.ts';

/**
 * A document's text for `srag ingest`, `srag_extract` and the evaluation baselines (PDF and Word
 * files through their parsers, see `readParsedDocument`): a missing or unreadable file, or a binary
 * one, is that document's error (DOCUMENT_UNREADABLE). `shownAs` is how messages name it (the path
 * from the working directory, where `path` is the canonical one). `limits` bound what one PDF or
 * Word document may cost (default: SRAG_MAX_PAGES and SRAG_READ_TIMEOUT_MS from the environment).
 */
export async function readDocumentFile(
  path: string,
  { hint = 'check that the file exists and is readable', shownAs = path, blocking = false, limits }: {
    hint?: string;
    shownAs?: string;
    blocking?: boolean;
    limits?: DocumentReadingLimits;
  } = {},
): Promise<string> {
  const parsed = readParsedDocument(path, shownAs, limits ?? (() => readDocumentReadingLimits()));
  if (parsed) return parsed;
  // `blocking`: one blocking read, for a thread that reads thousands of documents between model
  // calls (srag_extract's bridge): an asynchronous read takes four trips through the thread pool
  // and this thread's event loop (open, stat, read, close), ten times a small file's blocking read.
  const unreadable = { code: 'DOCUMENT_UNREADABLE' as const, hint, shownAs };
  const content = blocking ? readTextFileSync(path, unreadable) : await readTextFile(path, unreadable);
  if (content.includes('\u0000')) {
    throw new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${shownAs} is not a text file`, hint: 'convert it to .txt, .md, .html, .json, .pdf or .docx first' });
  }
  return content;
}
