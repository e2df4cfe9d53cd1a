import { DuckDBListValue, DuckDBStructValue } from '../../duckdb/duckdb-node-api.ts';
import type { DuckDBValue } from '@duckdb/node-api';
import { resolve } from 'node:path';
import { SragError } from '../../../core/index.ts';
import { documentPathOf, type DocumentPath } from '../../runtime/expand-document-paths.ts';
import { friendlyPath } from '../../runtime/friendly-path.ts';
import type { ScanDocument } from '../llm-bridge/bridge-protocol.ts';
import { scanDocumentsOf } from '../llm-bridge/list-scan-documents.ts';

/**
 * What the first argument of `srag_extract(docs, …)` names: a glob (or a file, or a directory) or a
 * list of them (`['a.txt', 'docs/*.md']`) — `patterns`, which the bridge lists (see
 * `listScanDocuments`), `named` saying what was given — or the list `read_text(…)` gives, whose
 * files are its `documents`, sorted by path.
 */
export function readScanArgument(argument: DuckDBValue, { followLinks }: { followLinks: boolean }): { patterns: string[]; named: string } | { documents: ScanDocument[] } {
  if (typeof argument === 'string') return { patterns: [argument], named: `"${argument}"` };
  if (argument instanceof DuckDBListValue) {
    const items = argument.items;
    if (items.every((item) => typeof item === 'string')) return { patterns: items as string[], named: 'the list' };
    if (items.every((item) => item instanceof DuckDBStructValue && typeof item.entries.filename === 'string')) {
      const byIdentity = new Map<string, DocumentPath>();
      for (const item of items as DuckDBStructValue[]) {
        const filename = item.entries.filename as string;
        const pattern = typeof item.entries.pattern === 'string' ? item.entries.pattern : filename;
        // A file gone since the list was made keeps its row; reading it fails with the reason.
        const path = documentPathOf(filename, pattern, { followLinks }) ?? { label: friendlyPath(filename), identity: resolve(filename), pattern };
        if (!byIdentity.has(path.identity)) byIdentity.set(path.identity, path);
      }
      return { documents: scanDocumentsOf([...byIdentity.values()].sort((left, right) => (left.label < right.label ? -1 : left.label > right.label ? 1 : 0)), 'the list') };
    }
  }
  throw new SragError({
    code: 'INPUT_INVALID',
    message: 'srag_extract takes a glob, a list of paths, or read_text(…) as its first argument',
    hint: "SELECT * FROM srag_extract('docs/*', schema := 'schema.json'), or srag_extract(read_text('docs/*'), schema := …)",
  });
}
