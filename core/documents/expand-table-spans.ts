/** A table cell as written, before spans are expanded. */
export interface SpanningCell {
  text: string;
  /** Rows the cell covers, from its own down; 0 means to the end of its row group (HTML's `rowspan="0"`). */
  rowSpan: number;
  /** Columns the cell covers, from its own rightwards. */
  columnSpan: number;
}

export interface SpanningRow {
  cells: SpanningCell[];
  /** Row group (HTML's thead, each tbody, tfoot): a row span never reaches past the end of its group. */
  group: number;
}

export interface GridRow {
  /** One text per column of the table, '' where no cell covers the slot. */
  cells: string[];
  /** True when a single cell covers every column of this row (a section title row, say). */
  wholeRowCell: boolean;
}

/** HTML's own limits; they also bound the work a hostile page can ask for. */
const maximumColumnSpan = 1000;
const maximumRowSpan = 65534;

/**
 * The most characters repeated cells may add, against the cells' own text: one cell spanning 1,000
 * columns and 10,000 rows made 190 KB of HTML into 40 MB of text. Past it a table's spans are not
 * expanded: each row keeps only the cells written in it, so every text stays, written once.
 */
const repetitionAllowance = (ownCharacters: number) => 16 * ownCharacters + 65_536;

/**
 * The table as a grid in which every row has every column: a cell spanning several rows or
 * columns is repeated in each slot it covers, so values stay under their column (a rank shared by
 * two teams appears on both teams' rows). Cells are placed as HTML's table model places them: each
 * in the first column of its row that no span from above occupies. Rows shorter than the widest are
 * padded with ''. Spans are clamped to HTML's limits and row spans to the end of their row group;
 * a table whose spans would repeat more text than `repetitionAllowance` keeps each row's own cells.
 */
export function expandTableSpans(rows: readonly SpanningRow[]): GridRow[] {
  /** Per row, per column: the index of the cell covering it (cells numbered in reading order). */
  const owners: number[][] = rows.map(() => []);
  const texts: string[] = [];
  const groupEnds = endsOfGroups(rows);
  let allowance = repetitionAllowance(rows.reduce((sum, row) => sum + row.cells.reduce((cells, cell) => cells + cell.text.length + 3, 0), 0));
  for (let rowIndex = 0; rowIndex < rows.length; rowIndex += 1) {
    const groupEnd = groupEnds[rowIndex]!;
    let column = 0;
    for (const cell of rows[rowIndex]!.cells) {
      while (owners[rowIndex]![column] !== undefined) column += 1;
      const cellIndex = texts.push(cell.text) - 1;
      const columnSpan = clamp(cell.columnSpan, 1, maximumColumnSpan);
      const rowSpan = cell.rowSpan === 0 ? groupEnd - rowIndex : clamp(cell.rowSpan, 1, maximumRowSpan);
      const lastRow = Math.min(groupEnd, rowIndex + rowSpan) - 1;
      for (let spanned = rowIndex; spanned <= lastRow; spanned += 1) {
        for (let offset = 0; offset < columnSpan; offset += 1) {
          // Overlapping spans are an authoring error; the cell placed first keeps the slot.
          if (owners[spanned]![column + offset] !== undefined) continue;
          owners[spanned]![column + offset] = cellIndex;
          allowance -= cell.text.length + 3;
          if (allowance < 0) return rows.map((row) => ({ cells: row.cells.map(({ text }) => text), wholeRowCell: false }));
        }
      }
      column += columnSpan;
    }
  }
  const width = owners.reduce((widest, row) => Math.max(widest, row.length), 0);
  return owners.map((row) => {
    const cells = Array.from({ length: width }, (_, column) => (row[column] === undefined ? '' : texts[row[column]!]!));
    let wholeRowCell = width > 1;
    for (let column = 0; column < width && wholeRowCell; column += 1) wholeRowCell = row[column] !== undefined && row[column] === row[0];
    return { cells, wholeRowCell };
  });
}

/** For each row, the index just past the last row of its group. */
function endsOfGroups(rows: readonly SpanningRow[]): number[] {
  const ends: number[] = new Array(rows.length);
  let end = rows.length;
  for (let index = rows.length - 1; index >= 0; index -= 1) {
    if (index + 1 < rows.length && rows[index + 1]!.group !== rows[index]!.group) end = index + 1;
    ends[index] = end;
  }
  return ends;
}

function clamp(value: number, minimum: number, maximum: number): number {
  if (!Number.isFinite(value)) return minimum;
  return Math.min(maximum, Math.max(minimum, Math.trunc(value)));
}
