import type { Value } from './api-types.ts';

// Every value shown comes through textContent, never as HTML.

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`the page has no #${id}`);
  return found as T;
}

export function create<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** A button that runs `onClick`; a real button, so the keyboard reaches it (Tab, then Enter or Space). */
export function button(label: string, onClick: () => void, className?: string): HTMLButtonElement {
  const node = create('button', label, className);
  node.type = 'button';
  node.addEventListener('click', onClick);
  return node;
}

/** A value as a cell shows it: NULL for none, JSON for a nested value, a unit after a number that has one. */
export function display(value: Value | undefined, unit?: string): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object') return JSON.stringify(value);
  return unit && typeof value === 'number' ? `${value} ${unit}` : String(value);
}

export interface TableColumn {
  /** The header's text. */
  title: string;
  /** Under the header, smaller (a unit, the table a column belongs to). */
  note?: string;
}

/**
 * A table of rows; `cell` may fill a cell itself (a button for a value with evidence), else the
 * value is shown as text. The header row is sticky; the container scrolls both ways.
 */
export function renderTable(target: HTMLTableElement, columns: readonly TableColumn[], rows: readonly Value[][], cell?: (td: HTMLTableCellElement, value: Value, rowIndex: number, columnIndex: number) => boolean): void {
  target.replaceChildren();
  const head = create('thead');
  const headRow = create('tr');
  for (const column of columns) {
    const th = create('th', column.title);
    th.scope = 'col';
    if (column.note) th.append(create('span', ` ${column.note}`, 'muted'));
    headRow.append(th);
  }
  head.append(headRow);
  const body = create('tbody');
  rows.forEach((row, rowIndex) => {
    const line = create('tr');
    row.forEach((value, columnIndex) => {
      const td = create('td');
      if (!cell?.(td, value, rowIndex, columnIndex)) {
        td.textContent = display(value);
        if (value === null) td.className = 'muted';
      }
      td.title = display(value);
      line.append(td);
    });
    body.append(line);
  });
  target.append(head, body);
}
