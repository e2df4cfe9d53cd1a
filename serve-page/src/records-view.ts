import { getJson } from './api.ts';
import type { RecordsBody, TableDetail } from './api-types.ts';
import { run } from './banner.ts';
import { button, byId, create, display, renderTable } from './elements.ts';
import { evidenceButton } from './evidence-view.ts';
import { pageState, tableDetail } from './page-state.ts';

const pageSize = 100;

/** Shows a table's records: its schema, what made it (and so whether its values have quotes), a page of rows. */
export function browse(table: string, offset = 0): Promise<void> {
  return run(async () => {
    const select = byId<HTMLSelectElement>('browse-table');
    if (select.value !== table) select.value = table;
    const page = await getJson<RecordsBody>(`/records?table=${encodeURIComponent(table)}&limit=${pageSize}&offset=${offset}`);
    const detail = tableDetail(page.table);
    renderSchema(detail);
    renderRecords(page, detail, offset);
  }).then(() => undefined);
}

function renderRecords(page: RecordsBody, detail: TableDetail | undefined, offset: number): void {
  byId('records-count').textContent = page.total === 0 ? 'none' : `${offset + 1}–${offset + page.rows.length} of ${page.total}`;
  byId('records-note').replaceChildren(...origin(page, detail));
  const extra = [page.position, page.document].filter((column): column is string => column !== null);
  const attributes = page.columns.slice(0, page.columns.length - extra.length);
  const unitOf = (name: string) => detail?.attributes.find((attribute) => attribute.name === name)?.unit;
  const columns = [
    ...attributes.map((name) => ({ title: name, ...(unitOf(name) ? { note: `(${unitOf(name)})` } : {}) })),
    ...(page.position ? [{ title: '#', note: '(item)' }] : []),
    ...(page.document ? [{ title: 'document' }] : []),
  ];
  const source = (row: number) => String(page.rows[row]!.at(-1));
  const position = (row: number) => (page.position ? Number(page.rows[row]!.at(-2)) : undefined);
  renderTable(byId<HTMLTableElement>('records'), columns, page.rows.map((row, index) => (page.document ? [...row.slice(0, -1), page.labels[index]!] : row)), (td, value, row, column) => {
    if (!page.document || column >= attributes.length) return false;
    const item = position(row);
    const attribute = item === undefined ? attributes[column]! : `${attributes[column]}[${item}]`;
    td.append(evidenceButton(display(value), { table: page.table, document: source(row), attribute }));
    return true;
  });
  const pager = byId('records-pager');
  pager.replaceChildren();
  if (offset > 0) pager.append(button(`Previous ${pageSize}`, () => void browse(page.table, Math.max(0, offset - pageSize)), 'secondary'));
  if (offset + page.rows.length < page.total) pager.append(button(`Next ${pageSize}`, () => void browse(page.table, offset + pageSize), 'secondary'));
}

/** What the table's rows are and where their values came from, in a line or two, with its child tables a click away. */
function origin(page: RecordsBody, detail: TableDetail | undefined): Node[] {
  const notes: Node[] = [];
  if (page.madeBy === 'srag import') {
    notes.push(create('span', `Imported${detail?.importedFrom ? ` from ${detail.importedFrom}` : ''} with srag import: its values were taken as they are, with no documents or quotes behind them, so there is no evidence to open.`));
  } else if (detail?.parent) {
    const entity = page.table.slice(detail.parent.length + 2);
    notes.push(create('span', `Each row is one item of the ${entity} a ${detail.parent} document lists (# is its place in the list). Click a value to see its quote in the document.`));
    notes.push(button(`Browse ${detail.parent}`, () => void browse(detail.parent!), 'link'));
  } else {
    notes.push(create('span', `${page.madeBy === 'srag_extract' ? 'Made by srag_extract. ' : ''}Click a value to see the document it was read from, with the quote highlighted.`));
  }
  for (const entity of detail?.entities ?? []) {
    const child = `${page.table}__${entity.name}`;
    if (pageState.tables.some((table) => table.name === child)) notes.push(button(`Browse its ${entity.name} (${child})`, () => void browse(child), 'link'));
  }
  return notes;
}

function renderSchema(detail: TableDetail | undefined): void {
  const list = create('div');
  if (!detail) {
    byId('schema').replaceChildren(list);
    return;
  }
  list.append(create('div', `${detail.title} (${detail.name})`, 'muted'));
  if (detail.description) list.append(create('div', detail.description, 'muted'));
  for (const attribute of detail.attributes) {
    const line = create('div', undefined, 'attribute');
    line.append(create('b', attribute.name), create('span', ` ${attribute.kind}${attribute.unit ? `, ${attribute.unit}` : ''} — `, 'muted'), create('span', attribute.description ?? ''));
    list.append(line);
  }
  byId('schema').replaceChildren(list);
}
