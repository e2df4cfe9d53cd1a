import type { DocumentFiles } from '../../app/index.ts';
import { friendlyPath } from './friendly-path.ts';
import { readDocumentFile } from './read-document-file.ts';

/** Documents read again from their canonical paths (PDF and Word through their parsers), named by their path from the working directory. */
export const nodeDocumentFiles: DocumentFiles = {
  read: (source) => readDocumentFile(source, { shownAs: friendlyPath(source) }),
  label: (source) => friendlyPath(source),
};
