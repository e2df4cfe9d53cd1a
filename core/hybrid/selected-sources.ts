import type { SqlResult } from '../ports/sql-engine.ts';

/** The provenance column a hybrid query must return: the document each row was extracted from. */
export const sourceColumn = '_source';

/**
 * The distinct documents a hybrid query selected, in the order of its rows (NULLs skipped), or
 * undefined when the result has no `_source` column and so names no document.
 */
export function selectedSources(result: SqlResult): string[] | undefined {
  const column = result.columns.findIndex((name) => name.toLowerCase() === sourceColumn);
  if (column < 0) return undefined;
  const sources = new Set<string>();
  for (const row of result.rows) {
    const value = row[column];
    if (typeof value === 'string' && value !== '') sources.add(value);
  }
  return [...sources];
}
