import { DuckDBListValue, DuckDBStructValue } from '../../duckdb/duckdb-node-api.ts';
import type { DuckDBValue } from '@duckdb/node-api';
import { resolve } from 'node:path';
import { SragError } from '../../../core/index.ts';
import { documentPathOf, expandDocumentPaths, type DocumentPath } from '../../runtime/expand-document-paths.ts';
import { friendlyPath } from '../../runtime/friendly-path.ts';
import type { ScanDocument } from '../llm-bridge/bridge-protocol.ts';

/**
 * The documents of `srag_extract(docs, …)`, sorted by path: `docs` is a glob (or a file, or a
 * directory), a list of them (`['a.txt', 'docs/*.md']`), or the list `read_text(…)` gives. Every
 * match becomes a row, so a file srag cannot read — or will not: a link out of the given paths,
 * unless `follow_links` — shows up with its `_error` instead of disappearing.
 */
export function resolveScanDocuments(argument: DuckDBValue, { followLinks }: { followLinks: boolean }): ScanDocument[] {
  const paths = matchedPaths(argument, followLinks);
  if (paths.length === 0) {
    const named = typeof argument === 'string' ? `"${argument}"` : 'the list';
    throw new SragError({ code: 'NO_DOCUMENTS', message: `srag_extract: no files match ${named}`, hint: 'paths are relative to the directory srag was started in' });
  }
  return paths.map((path) => ({
    source: path.identity,
    label: path.label,
    ...(path.outsideTarget ? { refusal: `${path.label} is a symbolic link to ${path.outsideTarget}, outside the given paths; add follow_links := true to read it` } : {}),
  }));
}

function matchedPaths(argument: DuckDBValue, followLinks: boolean): DocumentPath[] {
  if (typeof argument === 'string') return expandDocumentPaths([argument], { followLinks });
  if (argument instanceof DuckDBListValue) {
    const items = argument.items;
    if (items.every((item) => typeof item === 'string')) return expandDocumentPaths(items as string[], { followLinks });
    if (items.every((item) => item instanceof DuckDBStructValue && typeof item.entries.filename === 'string')) {
      const byIdentity = new Map<string, DocumentPath>();
      for (const item of items as DuckDBStructValue[]) {
        const filename = item.entries.filename as string;
        const pattern = typeof item.entries.pattern === 'string' ? item.entries.pattern : filename;
        // A file gone since the list was made keeps its row; reading it fails with the reason.
        const path = documentPathOf(filename, pattern, { followLinks }) ?? { label: friendlyPath(filename), identity: resolve(filename), pattern };
        if (!byIdentity.has(path.identity)) byIdentity.set(path.identity, path);
      }
      return [...byIdentity.values()].sort((left, right) => (left.label < right.label ? -1 : left.label > right.label ? 1 : 0));
    }
  }
  throw new SragError({
    code: 'INPUT_INVALID',
    message: 'srag_extract takes a glob, a list of paths, or read_text(…) as its first argument',
    hint: "SELECT * FROM srag_extract('docs/*', schema := 'schema.json'), or srag_extract(read_text('docs/*'), schema := …)",
  });
}
