import { SragError } from '../../core/index.ts';
import { canonicalPath } from '../runtime/canonical-path.ts';
import { resolveDocuments, type ResolvedDocuments } from '../runtime/resolve-documents.ts';
import type { ServedFolders } from './served-folders.ts';

/**
 * The documents `paths` name inside the served folders; a match outside them is left out as if
 * it were not there. Each is checked again just before it is read: a file swapped for a link
 * since (a job may run long after its request) is that document's failure, and nothing is read.
 */
export async function readServedDocuments(paths: string[], folders: ServedFolders): Promise<ResolvedDocuments> {
  const resolved = await resolveDocuments(paths, { confineTo: (identity) => folders.holds(identity) });
  const documents = resolved.documents.map((document) => ({
    ...document,
    read: () => {
      let canonical: string | undefined;
      try {
        canonical = canonicalPath(document.source);
      } catch {
        canonical = undefined;
      }
      if (canonical !== document.source) {
        return Promise.reject(new SragError({ code: 'DOCUMENT_UNREADABLE', message: `${document.label} is gone or now leads elsewhere`, hint: 'submit the job again' }));
      }
      return document.read();
    },
  }));
  return { ...resolved, documents };
}
