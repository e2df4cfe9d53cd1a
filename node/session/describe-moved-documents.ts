import { countNoun } from '../../core/index.ts';
import { friendlyPath } from '../runtime/friendly-path.ts';
import type { MovedDocuments } from '../duckdb/store/moved-documents.ts';

/**
 * The lines that say which records followed their documents to new paths, and which documents are
 * gone from theirs: removed (`pruned`), to be removed (`would prune`, a dry run), or kept — and
 * counted by answers — with `removeHint` saying how to remove them. Paths as the user would type them.
 */
export function describeMovedDocuments(table: string, { moved, gone, pruned }: MovedDocuments, { mode = 'run', removeHint }: { mode?: 'run' | 'dry run' | 'would prune'; removeHint: string }): string[] {
  const lines: string[] = [];
  const one = (count: number, singular: string, plural: string) => (count === 1 ? singular : plural);
  if (moved.length > 0) {
    const pairs = moved.map((move) => `${friendlyPath(move.to)}, was ${friendlyPath(move.from)}`);
    const verb = mode === 'run' ? one(moved.length, 'follows', 'follow') : 'would follow';
    lines.push(`moved: ${countNoun(moved.length, 'record')} of ${table} ${verb} ${one(moved.length, 'its document', 'their documents')} to ${one(moved.length, 'its new path', 'new paths')} instead of being extracted again (${listed(pairs)})`);
  }
  if (gone.length === 0) return lines;
  const names = listed(gone.map((source) => friendlyPath(source)));
  const documents = `${countNoun(gone.length, 'document')} of ${table}`;
  const paths = one(gone.length, 'its path', 'their paths');
  if (pruned) lines.push(`pruned: removed the records of ${documents} gone from ${paths} (${names})`);
  else if (mode === 'would prune') lines.push(`prune: would remove the records of ${documents} gone from ${paths} (${names})`);
  else {
    lines.push(`note: ${documents} ${one(gone.length, 'is', 'are')} gone from ${paths} (${names}): ${one(gone.length, 'its record stays', 'their records stay')} in the table and answers count ${one(gone.length, 'it', 'them')} — ` +
      `${removeHint} (a moved file keeps its record when srag ingest is given its new path)`);
  }
  return lines;
}

/** Up to five items, then how many more. */
function listed(items: string[]): string {
  return `${items.slice(0, 5).join('; ')}${items.length > 5 ? `; and ${items.length - 5} more` : ''}`;
}
