import { describeResultCut, type SqlResult, type SqlValue } from '../../core/index.ts';
import { terminalText } from './terminal-text.ts';

export interface FormatTableOptions {
  /** Cells longer than this are cut with "…", so a row stays on one line. Default 60. */
  maximumCellWidth?: number;
  /** Rows shown; the rest are counted in the last line. Default: all. */
  maximumRows?: number;
}

/**
 * An aligned text table for the terminal. Widths are found in one loop over the shown cells (a
 * spread of every row into `Math.max` overflows the stack past ~120k rows). The last line counts
 * the rows and says what was left out: rows not shown here, and rows or cell text the engine
 * already cut (`SqlResult.cut`).
 */
export function formatTable(result: SqlResult, { maximumCellWidth = 60, maximumRows = Infinity }: FormatTableOptions = {}): string {
  const { columns, rows } = result;
  const cell = (value: SqlValue) => {
    const text = terminalText(value === null ? 'NULL' : String(value));
    return text.length > maximumCellWidth ? `${text.slice(0, maximumCellWidth - 1)}…` : text;
  };
  const shown = rows.length > maximumRows ? rows.slice(0, maximumRows) : rows;
  const widths = columns.map((column) => column.length);
  const cells = shown.map((row) => row.map((value, index) => {
    const text = cell(value);
    if (text.length > widths[index]!) widths[index] = text.length;
    return text;
  }));
  const line = (values: string[]) => values.map((value, index) => value.padEnd(widths[index]!)).join(' │ ').trimEnd();
  const lines = [line(columns), widths.map((width) => '─'.repeat(width)).join('─┼─')];
  for (const row of cells) lines.push(line(row));
  lines.push(countLine(result, shown.length));
  return lines.join('\n');
}

function countLine({ rows, cut }: SqlResult, shownCount: number): string {
  const total = `${rows.length}${cut?.rowsOmitted ? '+' : ''} row${rows.length === 1 && !cut?.rowsOmitted ? '' : 's'}`;
  const notes: string[] = [];
  if (shownCount < rows.length) notes.push(`${shownCount} shown`);
  const cutNote = describeResultCut(cut, rows.length);
  if (cutNote) notes.push(cutNote);
  return `(${total}${notes.length ? `; ${notes.join('; ')}` : ''})`;
}
