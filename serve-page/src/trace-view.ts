import { download, getJson } from './api.ts';
import type { AnswerBody, TraceBody, TracedColumn, Value } from './api-types.ts';
import { run } from './banner.ts';
import { button, byId, create, display, renderTable } from './elements.ts';
import { evidenceButton } from './evidence-view.ts';
import { tableDetail } from './page-state.ts';

/** Records shown at once; the downloads hold up to 10,000. */
const shownRecords = 200;

/**
 * Opens the records a result row was computed from (`row`), or those the whole answer rests on:
 * the selection its SQL derives (the coverage counts over the same), narrowed to the row's group
 * or the row itself. Each value of a table with documents opens its quote; both can be downloaded.
 */
export function showTrace(answer: AnswerBody, row?: number): Promise<void> {
  return run(async () => {
    const section = byId('trace');
    const rowQuery = row === undefined ? '' : `row=${row}&`;
    const traced = await getJson<TraceBody>(`/answers/${encodeURIComponent(answer.id)}/records?${rowQuery}limit=${shownRecords}`);
    const heading = create('h2', row === undefined ? 'Records behind the answer' : `Records behind result row ${row + 1}`);
    heading.id = 'trace-heading';
    if (row !== undefined) heading.append(create('span', ` (${answer.columns.map((column, index) => `${column} = ${display(answer.rows[row]![index])}`).join(', ')})`, 'muted'));
    section.replaceChildren(heading);
    section.hidden = false;
    if ('untraceable' in traced) {
      section.append(create('p', `These records cannot be derived from the SQL alone: ${traced.untraceable}. The result itself can be downloaded above.`, 'muted'));
      return;
    }
    section.append(create('p', describeTrace(traced.narrowing, row !== undefined, traced.total, traced.rows.length), 'trace-summary'));
    if (traced.note) section.append(create('p', traced.note, 'muted'));
    const name = `srag-records${row === undefined ? '' : `-row-${row + 1}`}`;
    const path = (format: string) => `/answers/${encodeURIComponent(answer.id)}/records?${rowQuery}format=${format}`;
    const downloads = create('p', 'Download these records: ', 'downloads');
    downloads.append(
      button('CSV', () => void run(() => download(path('csv'), `${name}.csv`)), 'link'),
      create('span', ' · '),
      button('Parquet', () => void run(() => download(path('parquet'), `${name}.parquet`)), 'link'),
    );
    section.append(downloads);
    const container = create('div', undefined, 'scroll');
    const table = create('table');
    table.id = 'trace-records';
    container.append(table);
    section.append(container);
    renderTraced(table, traced.columns, traced.rows);
    section.scrollIntoView({ block: 'nearest' });
  }).then(() => undefined);
}

/** "The 9 records of this row's group.": what the shown records are, and how many of them are shown. */
function describeTrace(narrowing: 'all' | 'group' | 'row', forRow: boolean, total: number, shown: number): string {
  const count = `${total} ${total === 1 ? 'record' : 'records'}`;
  const what = !forRow ? `The ${count} the answer was computed from (the rows its FROM and WHERE keep)`
    : narrowing === 'group' ? `The ${count} of this row's group`
      : narrowing === 'row' ? `The ${count} this row was read from`
        : `This row aggregates every record the query selects: all ${count}`;
  return `${what}.${shown < total ? ` The first ${shown} are shown; the downloads hold up to 10,000.` : ''}`;
}

/** The traced rows, a column per table and attribute; a value of a table with documents opens its quote. */
function renderTraced(target: HTMLTableElement, columns: readonly TracedColumn[], rows: readonly Value[][]): void {
  const tableOf = (column: TracedColumn) => (column.reference === column.table ? column.table : `${column.table} ${column.reference}`);
  const shownColumns = columns.map((column) => ({
    title: column.role === 'document' ? 'document' : column.role === 'position' ? '#' : column.column,
    note: `(${tableOf(column)}${unitOf(column) ? `, ${unitOf(column)}` : ''})`,
  }));
  renderTable(target, shownColumns, rows, (td, value, row, index) => {
    const column = columns[index]!;
    if (column.role === 'document') {
      td.textContent = display(value).split(/[\\/]/).pop() ?? '';
      return true;
    }
    const document = columns.find((candidate) => candidate.reference === column.reference && candidate.role === 'document');
    if (column.role !== 'value' || !document) return false;
    const source = rows[row]![columns.indexOf(document)];
    if (source === null || source === undefined) return false;
    const positionColumn = columns.find((candidate) => candidate.reference === column.reference && candidate.role === 'position');
    const position = positionColumn ? rows[row]![columns.indexOf(positionColumn)] : undefined;
    const attribute = position === undefined || position === null ? column.column : `${column.column}[${position}]`;
    td.append(evidenceButton(display(value), { table: column.table, document: String(source), attribute }));
    return true;
  });
}

function unitOf(column: TracedColumn): string | undefined {
  return tableDetail(column.table)?.attributes.find((attribute) => attribute.name === column.column)?.unit;
}
