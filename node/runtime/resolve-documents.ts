import { extname } from 'node:path';
import { SragError, type DocumentSource } from '../../core/index.ts';
import { readableDocumentExtensions } from './documents/read-document.ts';
import { expandDocumentPaths } from './expand-document-paths.ts';
import { documentAtPathShownAs } from './document-at-path.ts';

export interface ResolvedDocuments {
  /** Sorted by label; `source` is the canonical absolute path, `label` the path from the working directory. */
  documents: DocumentSource[];
  /** Files of unsupported types, left out. */
  skipped: string[];
  /** Symbolic links out of the given paths, left out (unless `followLinks`): "label → target". */
  outsideLinks: string[];
}

/**
 * Expand the document arguments (globs or paths, as the shell left them) into document sources.
 * Files with unsupported extensions and links that lead out of the given paths are left out and
 * reported.
 */
export async function resolveDocuments(patterns: string[], { followLinks = false, confineTo }: { followLinks?: boolean; confineTo?: (identity: string) => boolean } = {}): Promise<ResolvedDocuments> {
  const matched = expandDocumentPaths(patterns, { followLinks, confineTo });
  const paths = matched.filter((path) => path.outsideTarget === undefined);
  const outsideLinks = matched.filter((path) => path.outsideTarget !== undefined);
  if (matched.length === 0) {
    throw new SragError({
      code: 'NO_DOCUMENTS',
      message: `no files match ${patterns.map((pattern) => `"${pattern}"`).join(' ')}`,
      hint: 'check the path from the current directory, and quote globs so srag expands them: srag ingest "docs/*.html" …',
    });
  }
  const skipped: string[] = [];
  const documents: DocumentSource[] = [];
  for (const { label, identity } of paths) {
    if (!readableDocumentExtensions.includes(extname(identity).toLowerCase())) {
      skipped.push(label);
      continue;
    }
    documents.push(documentAtPathShownAs(identity, label));
  }
  if (documents.length === 0) {
    throw new SragError({
      code: 'NO_DOCUMENTS',
      message: paths.length === 0
        ? `every file that matches is a symbolic link out of the given paths (${outsideLinks.map((link) => link.label).slice(0, 3).join(', ')})`
        : `none of the ${skipped.length} matching files is a supported document`,
      hint: paths.length === 0 ? 'pass --follow-links to read what they point to' : `srag reads ${readableDocumentExtensions.join(', ')}`,
    });
  }
  return { documents, skipped, outsideLinks: outsideLinks.map((link) => `${link.label} → ${link.outsideTarget}`) };
}
