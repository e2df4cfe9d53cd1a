import type { ResultCut } from '../ports/sql-engine.ts';

/**
 * What an engine left out of a result, in words for a user: "only the first 10000 rows were
 * returned (the query produced more); 2 cells were cut to 10000 characters". Undefined when
 * nothing was cut.
 */
export function describeResultCut(cut: ResultCut | undefined, returnedRows: number): string | undefined {
  if (!cut) return undefined;
  const parts: string[] = [];
  if (cut.rowsOmitted) parts.push(`only the first ${returnedRows} rows were returned (the query produced more)`);
  if (cut.cellsShortened > 0) parts.push(`${cut.cellsShortened} cell${cut.cellsShortened === 1 ? ' was' : 's were'} cut to ${cut.maximumCellCharacters} characters`);
  return parts.length ? parts.join('; ') : undefined;
}
