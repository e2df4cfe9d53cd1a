import type { DocumentSource } from '../../core/index.ts';
import { friendlyPath } from './friendly-path.ts';
import { readDocumentFile } from './read-document-file.ts';

/** The document at `source` (a canonical absolute path, as `_source` holds it), shown from the working directory. */
export function documentAtPath(source: string): DocumentSource {
  const label = friendlyPath(source);
  return { source, label, read: () => readDocumentFile(source, { shownAs: label }) };
}
