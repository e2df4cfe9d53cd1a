import type { ColumnStatistics } from '../../core/index.ts';
import { terminalText } from './terminal-text.ts';

/** Values shown per text or boolean column; the prompt's rendering (`renderStatistics`) lists more. */
const shownValues = 5;
/** A long value is cut on screen: a document may hold a paragraph where a name was expected. */
const maximumValueLength = 40;

/**
 * `srag stats`' statistics, one line per column, for a person rather than a prompt: a mean rounded
 * to what can be read (3.78, not 3.777777778), and the most frequent values of a text column with
 * how many more there are, so a column of 50 names stays one readable line.
 */
export function renderStatisticsForTerminal(statistics: ColumnStatistics[]): string {
  return statistics.map((column) => {
    const parts = [`${column.nonNullCount} of ${column.rowCount} rows`];
    if (column.min !== undefined) parts.push(`min ${column.min}, max ${column.max}${column.mean !== undefined ? `, mean ${readableNumber(column.mean)}` : ''}`);
    if (column.values?.length === 0) parts.push('no values');
    else if (column.values) {
      const shown = column.values.slice(0, shownValues).map(({ value, count }) => `${typeof value === 'string' ? JSON.stringify(shorten(value)) : value} (${count})`);
      const distinct = column.distinctCount ?? column.values.length;
      const more = distinct > shown.length ? `, … ${distinct - shown.length} more` : '';
      parts.push(`${distinct} distinct: ${shown.join(', ')}${more}`);
    }
    return `  ${terminalText(column.name)}: ${terminalText(parts.join('; '))}`;
  }).join('\n');
}

/** Two decimals at most for a number of 1 or more, three significant digits below. */
function readableNumber(value: number): string {
  return value.toLocaleString('en-US', Math.abs(value) >= 1 || value === 0 ? { maximumFractionDigits: 2, useGrouping: false } : { maximumSignificantDigits: 3 });
}

function shorten(value: string): string {
  return value.length > maximumValueLength ? `${value.slice(0, maximumValueLength)}…` : value;
}
