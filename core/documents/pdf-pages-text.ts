import { pageMarker } from './page-marker.ts';

/** One run of text as a PDF draws it (pdf.js's text content items, in content-stream order). */
export interface PdfTextRun {
  text: string;
  /** Left end of the run's baseline, in points from the page's left edge. */
  x: number;
  /** The baseline, in points from the page's bottom edge (larger is higher on the page). */
  y: number;
  /** Advance width of the run in points. */
  width: number;
  fontSize: number;
}

/** A horizontal stretch of one line: a run, or runs close enough to be words of one phrase. */
interface Cell {
  text: string;
  left: number;
  right: number;
}

interface Line {
  cells: Cell[];
  y: number;
  fontSize: number;
}

/** A gap wider than this many font sizes separates words; one wider than `cellGap` separates table cells. */
const wordGap = 0.15;
const cellGap = 0.8;
/** Runs whose baselines differ by less than this many font sizes share a line (superscripts included). */
const sameLine = 0.5;
/** A line this much larger than the body text, and short, is a heading. */
const headingScale = 1.2;
const headingMaximumLength = 120;
/** Heading levels are ranked by size: the largest size is `#`, and no level goes deeper than `###`. */
const deepestHeadingLevel = 3;

/**
 * The text of a PDF from its pages' text runs, as the model reads it: each page opened by a page
 * marker (`--- page 2 ---`), then its lines in the order the PDF draws them (which keeps the
 * reading order of columns), with a blank line between paragraphs. Lines noticeably larger than the
 * body text become markdown headings (`#` for the largest size, then `##`, `###`), so that long
 * documents split at sections. Consecutive lines whose words fall into the same columns, with wide
 * gaps between them, are a table: each is written as `cell | cell | cell`, an empty cell where a
 * row has nothing under a column, like the rows of an HTML table. A page with no text gets
 * `--- page N (no text layer) ---` and nothing else.
 */
export function pdfPagesText(pages: readonly (readonly PdfTextRun[])[]): string {
  const pageLines = pages.map((runs) => linesOf(runs));
  const bodySize = bodyFontSize(pageLines.flat());
  const headingLevel = headingLevels(pageLines.flat(), bodySize);
  const blocks: string[] = [];
  pageLines.forEach((lines, index) => {
    if (lines.length === 0) {
      blocks.push(pageMarker(index + 1, 'no text layer'));
      return;
    }
    blocks.push(pageMarker(index + 1));
    blocks.push(pageBody(lines, bodySize, headingLevel));
  });
  return blocks.join('\n\n');
}

/** Runs grouped into lines in drawing order, each line's runs left to right and joined into cells. */
function linesOf(runs: readonly PdfTextRun[]): Line[] {
  const lines: { runs: PdfTextRun[]; y: number; fontSize: number }[] = [];
  for (const run of runs) {
    if (run.text.trim() === '' || !(run.fontSize > 0)) continue;
    const current = lines[lines.length - 1];
    if (current && Math.abs(run.y - current.y) < sameLine * Math.max(run.fontSize, current.fontSize)) {
      current.runs.push(run);
      // The line's size and baseline are its body text's, not a superscript's.
      if (run.fontSize > current.fontSize) Object.assign(current, { fontSize: run.fontSize, y: run.y });
    } else {
      lines.push({ runs: [run], y: run.y, fontSize: run.fontSize });
    }
  }
  return lines.map(({ runs: lineRuns, y, fontSize }) => {
    const sorted = [...lineRuns].sort((first, second) => first.x - second.x);
    const cells: Cell[] = [];
    for (const run of sorted) {
      const text = run.text.replace(/\s+/g, ' ');
      const previous = cells[cells.length - 1];
      const gap = previous ? run.x - previous.right : Infinity;
      if (previous && gap < cellGap * fontSize) {
        const space = gap > wordGap * fontSize && !previous.text.endsWith(' ') && !text.startsWith(' ') ? ' ' : '';
        previous.text += space + text;
        previous.right = Math.max(previous.right, run.x + run.width);
      } else {
        cells.push({ text, left: run.x, right: run.x + run.width });
      }
    }
    for (const cell of cells) cell.text = cell.text.trim();
    return { cells, y, fontSize };
  });
}

/** The font size most of the document's characters are set in. */
function bodyFontSize(lines: readonly Line[]): number {
  const characters = new Map<number, number>();
  for (const line of lines) {
    const size = Math.round(line.fontSize * 2) / 2;
    const count = line.cells.reduce((sum, cell) => sum + cell.text.length, 0);
    characters.set(size, (characters.get(size) ?? 0) + count);
  }
  let body = 0;
  let most = -1;
  for (const [size, count] of characters) {
    if (count > most) [body, most] = [size, count];
  }
  return body;
}

/** Heading sizes, largest first, mapped to their markdown level. */
function headingLevels(lines: readonly Line[], bodySize: number): Map<number, number> {
  const sizes = new Set<number>();
  for (const line of lines) if (isHeadingLine(line, bodySize)) sizes.add(Math.round(line.fontSize * 2) / 2);
  const levels = new Map<number, number>();
  [...sizes].sort((first, second) => second - first).forEach((size, index) => levels.set(size, Math.min(index + 1, deepestHeadingLevel)));
  return levels;
}

function isHeadingLine(line: Line, bodySize: number): boolean {
  const text = line.cells.map((cell) => cell.text).join(' ');
  return line.cells.length === 1 && line.fontSize >= headingScale * bodySize && text.length <= headingMaximumLength && /\p{L}/u.test(text);
}

/** One page's lines as text: headings, paragraphs, and table blocks. */
function pageBody(lines: readonly Line[], bodySize: number, headingLevel: ReadonlyMap<number, number>): string {
  const tables = tableBlocks(lines);
  const leading = typicalLeading(lines);
  const output: string[] = [];
  let previous: Line | undefined;
  let previousKind: 'heading' | 'text' | 'table' | undefined;
  for (let index = 0; index < lines.length; index += 1) {
    const table = tables.get(index);
    if (table) {
      output.push('');
      for (const row of table.rows) output.push(row);
      index = table.end - 1;
      previous = lines[index];
      previousKind = 'table';
      continue;
    }
    const line = lines[index]!;
    const text = line.cells.map((cell) => cell.text).join(' ');
    if (isHeadingLine(line, bodySize)) {
      const marks = '#'.repeat(headingLevel.get(Math.round(line.fontSize * 2) / 2) ?? deepestHeadingLevel);
      // A heading set on two lines is one heading.
      if (previousKind === 'heading' && previous && previous.fontSize === line.fontSize && previous.y - line.y < 2 * line.fontSize) {
        output[output.length - 1] += ` ${text}`;
      } else {
        output.push('', `${marks} ${text}`);
      }
      previousKind = 'heading';
    } else {
      const newParagraph = previousKind !== 'text' || !previous || previous.y - line.y > 1.4 * leading || previous.y < line.y;
      output.push(...(newParagraph ? ['', text] : [text]));
      previousKind = 'text';
    }
    previous = line;
  }
  return output.join('\n').replace(/^\n+/, '').replace(/\n{3,}/g, '\n\n');
}

/**
 * The distance between the baselines of wrapped lines in a paragraph: the lower quartile of the
 * gaps between consecutive one-cell lines of one size (paragraph gaps and table rows are wider).
 */
function typicalLeading(lines: readonly Line[]): number {
  const gaps: number[] = [];
  for (let index = 1; index < lines.length; index += 1) {
    const [above, below] = [lines[index - 1]!, lines[index]!];
    const gap = above.y - below.y;
    if (above.cells.length === 1 && below.cells.length === 1 && Math.abs(above.fontSize - below.fontSize) < 0.5 && gap > 0 && gap < 3 * below.fontSize) gaps.push(gap);
  }
  if (gaps.length === 0) return 1.2 * (lines[0]?.fontSize ?? 10);
  gaps.sort((first, second) => first - second);
  return gaps[Math.floor(gaps.length / 4)]!;
}

/**
 * Table blocks by the index of their first line: runs of at least two consecutive lines with two
 * or more cells, whose cells line up in at least two columns (see `columnsOf`; left, right or centre
 * aligned alike). A one-cell line between rows stays in the table when it fits in one column (a row
 * with a single value). Each row is written with one entry per column.
 */
function tableBlocks(lines: readonly Line[]): Map<number, { end: number; rows: string[] }> {
  const blocks = new Map<number, { end: number; rows: string[] }>();
  let index = 0;
  while (index < lines.length) {
    if (lines[index]!.cells.length < 2) {
      index += 1;
      continue;
    }
    let end = index + 1;
    while (end < lines.length && lines[end]!.cells.length >= 2) end += 1;
    let columns = columnsOf(lines.slice(index, end));
    // Single-value rows inside the table, and further rows after them.
    while (end + 1 < lines.length && lines[end]!.cells.length === 1 && lines[end + 1]!.cells.length >= 2 && fitsOneColumn(lines[end]!.cells[0]!, columns)) {
      let next = end + 1;
      while (next < lines.length && lines[next]!.cells.length >= 2) next += 1;
      end = next;
      columns = columnsOf(lines.slice(index, end).filter((line) => line.cells.length >= 2));
    }
    const multiCellRows = lines.slice(index, end).filter((line) => line.cells.length >= 2).length;
    if (multiCellRows >= 2 && columns.length >= 2) {
      blocks.set(index, { end, rows: lines.slice(index, end).map((line) => tableRow(line, columns)) });
    }
    index = end;
  }
  return blocks;
}

/**
 * The columns of a table block: the stretches its fullest rows cover (every column has a cell
 * there), widened by the cells of other rows that overlap exactly one of them. A cell across two
 * columns (a header over sub-columns) does not merge them, and a cell between columns does not make
 * one of its own; both go to the column they are nearest (see `tableRow`).
 */
function columnsOf(lines: readonly Line[]): { left: number; right: number }[] {
  const fullest = lines.reduce((most, line) => Math.max(most, line.cells.length), 0);
  const columns = mergedStretches(lines.filter((line) => line.cells.length === fullest).flatMap((line) => line.cells));
  const others = lines.filter((line) => line.cells.length < fullest).flatMap((line) => line.cells)
    .filter((cell) => columns.filter((column) => cell.left <= column.right && cell.right >= column.left).length === 1);
  return mergedStretches([...columns, ...others]);
}

/** Stretches of the page covered by `stretches`, overlapping ones merged, left to right. */
function mergedStretches(stretches: readonly { left: number; right: number }[]): { left: number; right: number }[] {
  const sorted = [...stretches].sort((first, second) => first.left - second.left);
  const merged: { left: number; right: number }[] = [];
  for (const stretch of sorted) {
    const last = merged[merged.length - 1];
    if (last && stretch.left <= last.right) last.right = Math.max(last.right, stretch.right);
    else merged.push({ left: stretch.left, right: stretch.right });
  }
  return merged;
}

function fitsOneColumn(cell: Cell, columns: readonly { left: number; right: number }[]): boolean {
  return columns.some((column) => cell.left >= column.left - 1 && cell.right <= column.right + 1);
}

/** `cell | cell`: each cell under the column it overlaps most (or is nearest), '' for columns the row leaves empty. */
function tableRow(line: Line, columns: readonly { left: number; right: number }[]): string {
  const texts = columns.map(() => '');
  for (const cell of line.cells) {
    let best = 0;
    let bestOverlap = -Infinity;
    columns.forEach((column, columnIndex) => {
      const overlap = Math.min(cell.right, column.right) - Math.max(cell.left, column.left);
      if (overlap > bestOverlap) [best, bestOverlap] = [columnIndex, overlap];
    });
    texts[best] = texts[best] ? `${texts[best]} ${cell.text}` : cell.text;
  }
  return texts.join(' | ').trim();
}
