import { SragError } from '../../../core/index.ts';
import { expandDocumentPaths, type DocumentPath } from '../../runtime/expand-document-paths.ts';
import type { ScanDocument } from './bridge-protocol.ts';

/**
 * The documents of `srag_extract(docs, …)` that `patterns` name (globs, directories, paths), sorted
 * by path; `named` says what was given, for the error when nothing matches. Every match becomes a
 * row, so a file srag will not read — a link out of the given paths, unless `followLinks` — shows
 * up with its `_error` instead of disappearing. Run on the bridge worker, which keeps the list
 * for the scan (see `ScanListing`): the thread that runs DuckDB never holds it.
 */
export function listScanDocuments(patterns: readonly string[], named: string, followLinks: boolean): ScanDocument[] {
  return scanDocumentsOf(expandDocumentPaths(patterns, { followLinks }), named);
}

/** `paths` as a scan's documents; refuses an empty list, naming what was given (`named`). */
export function scanDocumentsOf(paths: readonly DocumentPath[], named: string): ScanDocument[] {
  if (paths.length === 0) {
    throw new SragError({ code: 'NO_DOCUMENTS', message: `srag_extract: no files match ${named}`, hint: 'paths are relative to the directory srag was started in' });
  }
  return paths.map((path) => (path.outsideTarget
    ? { source: path.identity, label: path.label, refusal: `${path.label} is a symbolic link to ${path.outsideTarget}, outside the given paths; add follow_links := true to read it` }
    : { source: path.identity, label: path.label }));
}
