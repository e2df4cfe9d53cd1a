import type { SqlResult, SqlValue } from '../ports/sql-engine.ts';

/** Rows beyond this are summarised: the answer step needs the result, not a data dump. */
const maximumRows = 50;
/** A cell longer than this is cut in the prompt: one document's page in a cell must not fill it. */
const maximumCellCharacters = 500;
/** All rows together stay under this, whatever the number of columns. */
const maximumCharacters = 20_000;

/**
 * A query result as a pipe table for the answer prompt, bounded in rows, cell length and total
 * size. Whatever is left out is said in the table itself, so the model does not take a cut
 * result for the whole one.
 */
export function formatRowsForPrompt(result: SqlResult): string {
  const lines = [result.columns.join(' | ')];
  let characters = lines[0]!.length;
  let shown = 0;
  let cellsCut = (result.cut?.cellsShortened ?? 0) > 0;
  for (const row of result.rows) {
    if (shown === maximumRows) break;
    const line = row.map((value) => {
      const text = formatValue(value);
      if (text.length <= maximumCellCharacters) return text;
      cellsCut = true;
      return `${text.slice(0, maximumCellCharacters)}…`;
    }).join(' | ');
    if (shown > 0 && characters + line.length > maximumCharacters) break;
    lines.push(line);
    characters += line.length + 1;
    shown += 1;
  }
  const omitted = result.rows.length - shown;
  if (omitted > 0 || result.cut?.rowsOmitted) {
    lines.push(`… ${omitted > 0 ? `${omitted} more rows` : 'more rows'}${result.cut?.rowsOmitted ? ' (and the query produced more than were returned)' : ''}`);
  }
  if (cellsCut) lines.push('(cells ending in … were cut)');
  return lines.join('\n');
}

/** The row count as the answer prompt states it: "50000+" when the engine returned only part. */
export function describeRowCount(result: SqlResult): string {
  return `${result.rows.length}${result.cut?.rowsOmitted ? '+' : ''}`;
}

function formatValue(value: SqlValue): string {
  if (value === null) return 'NULL';
  if (typeof value === 'string') return value;
  return String(value);
}
