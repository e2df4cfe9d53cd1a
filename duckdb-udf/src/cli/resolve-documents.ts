import { extname } from 'node:path';
import { SragError, type DocumentSource } from '../../../core/index.ts';
import { readableDocumentExtensions } from '../documents/read-document.ts';
import { expandDocumentPaths } from '../expand-document-paths.ts';
import { readDocumentFile } from '../read-document-file.ts';

/**
 * Expand the document arguments (globs or paths, as the shell left them) into document sources,
 * sorted and de-duplicated. Files with unsupported extensions are reported and skipped.
 */
export async function resolveDocuments(patterns: string[]): Promise<{ documents: DocumentSource[]; skipped: string[] }> {
  const paths = expandDocumentPaths(patterns);
  if (paths.length === 0) {
    throw new SragError({
      code: 'NO_DOCUMENTS',
      message: `no files match ${patterns.map((pattern) => `"${pattern}"`).join(' ')}`,
      hint: 'check the path from the current directory, and quote globs so srag expands them: srag ingest "docs/*.html" …',
    });
  }
  const skipped: string[] = [];
  const documents: DocumentSource[] = [];
  for (const path of paths) {
    if (!readableDocumentExtensions.includes(extname(path).toLowerCase())) {
      skipped.push(path);
      continue;
    }
    documents.push({ source: path, read: () => readDocumentFile(path) });
  }
  if (documents.length === 0) {
    throw new SragError({
      code: 'NO_DOCUMENTS',
      message: `none of the ${skipped.length} matching files is a supported document`,
      hint: `srag reads ${readableDocumentExtensions.join(', ')}`,
    });
  }
  return { documents, skipped };
}
