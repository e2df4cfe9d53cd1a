import { SragError } from '../../core/index.ts';
import { readParsedDocument } from './documents/read-document.ts';
import { readTextFile } from './read-text-file.ts';

/**
 * A document's text for `srag ingest`, `srag_extract` and the evaluation baselines (PDF and Word
 * files through their parsers, see `readParsedDocument`): a missing or unreadable file, or a binary
 * one, is that document's error (DOCUMENT_UNREADABLE). `shownAs` is how messages name it (the path
 * from the working directory, where `path` is the canonical one).
 */
export async function readDocumentFile(path: string, { hint = 'check that the file exists and is readable', shownAs = path }: { hint?: string; shownAs?: string } = {}): Promise<string> {
  const parsed = readParsedDocument(path, shownAs);
  if (parsed) return parsed;
  const content = await readTextFile(path, { code: 'DOCUMENT_UNREADABLE', hint, shownAs });
  if (content.includes('\u0000')) {
    throw new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${shownAs} is not a text file`, hint: 'convert it to .txt, .md, .html, .json, .pdf or .docx first' });
  }
  return content;
}
