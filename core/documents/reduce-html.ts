import { ElementType } from 'htmlparser2';
import { expandTableSpans } from './expand-table-spans.ts';
import { parseHtml } from './parse-html.ts';

type HtmlDocument = ReturnType<typeof parseHtml>;
type HtmlNode = HtmlDocument['children'][number];
type HtmlElement = Extract<HtmlNode, { attribs: Record<string, string> }>;

/** Elements whose content is never reading text. */
const droppedTags = new Set([
  'head', 'script', 'style', 'noscript', 'template', 'svg', 'canvas', 'iframe', 'object', 'embed',
  'nav', 'footer', 'aside', 'button', 'select', 'option', 'input', 'textarea', 'img', 'link', 'meta',
]);

/** Site chrome, mostly MediaWiki's: edit links, navboxes, footnote markers, tables of contents, message boxes. */
const droppedClasses = new Set([
  'mw-editsection', 'navbox', 'navbox-styles', 'vertical-navbox', 'sidebar', 'navbar', 'reference', 'reflist',
  'references', 'mw-references-wrap', 'mw-cite-backlink', 'toc', 'mw-jump-link', 'catlinks', 'printfooter',
  'noprint', 'metadata', 'authority-control', 'sistersitebox', 'portalbox', 'mw-indicators',
]);

const droppedIds = new Set([
  'toc', 'siteSub', 'contentSub', 'contentSub2', 'jump-to-nav', 'mw-navigation', 'mw-head', 'mw-panel',
  'mw-page-base', 'mw-head-base', 'footer', 'catlinks', 'siteNotice',
]);

/**
 * Back-matter section titles: from a heading with one of these titles to the end of the page, the text
 * is citations and links, not content.
 */
const backMatterTitles = new Set([
  'references', 'external links', 'notes', 'see also', 'further reading', 'footnotes', 'citations',
  'notes and references', 'references and notes', 'sources and references',
]);

/** Blocks that get a blank line around them; other block elements only end the line. */
const paragraphTags = new Set([
  'p', 'blockquote', 'pre', 'table', 'ul', 'ol', 'dl', 'figure', 'section', 'article', 'main', 'header', 'hr',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
]);
const lineTags = new Set([
  'div', 'li', 'dt', 'dd', 'figcaption', 'address', 'center', 'details', 'summary', 'form', 'fieldset',
  'caption', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'legend', 'hgroup', 'dialog',
]);

/** What the walk is inside of: headings and back-matter cuts only count at the top level, not in table cells. */
interface RenderContext {
  readonly insideCell: boolean;
  /** Set once a back-matter heading is met; everything after it is skipped. */
  readonly cut: { reached: boolean };
}

/**
 * Readable plain text from an HTML page: headings as `#` lines, paragraphs separated by one blank line,
 * list items as `- item` (`1. item` in ordered lists, nested lists indented two spaces per level),
 * table rows as cells joined by ` | `, entities decoded, whitespace collapsed within lines. Scripts,
 * styles, hidden elements, navigation and Wikipedia chrome (edit links, navboxes, footnote markers,
 * contents box) are dropped, and the page is cut at a References / External links / Notes / See also heading.
 * Pure JavaScript over htmlparser2, so it runs in every runtime core is bundled for.
 */
export function reduceHtml(html: string): string {
  const document = parseHtml(html);
  const writer = new PlainTextWriter();
  renderChildren(document.children, writer, { insideCell: false, cut: { reached: false } });
  return writer.result();
}

function renderChildren(nodes: readonly HtmlNode[], writer: PlainTextWriter, context: RenderContext): void {
  for (const node of nodes) {
    if (context.cut.reached) return;
    renderNode(node, writer, context);
  }
}

function renderNode(node: HtmlNode, writer: PlainTextWriter, context: RenderContext): void {
  if (node.type === ElementType.Text) {
    writer.write(node.data);
    return;
  }
  if (node.type === ElementType.CDATA || node.type === ElementType.Root) {
    renderChildren(node.children, writer, context);
    return;
  }
  if (!('attribs' in node) || isDropped(node)) return;
  const tag = node.name.toLowerCase();

  if (/^h[1-6]$/.test(tag)) {
    renderHeading(node, Number(tag.slice(1)), writer, context);
    return;
  }
  if (tag === 'br') {
    writer.lineBreak();
    return;
  }
  if (tag === 'pre') {
    writer.preformatted(preformattedText(node));
    return;
  }
  if (tag === 'table') {
    renderTable(node, writer, context);
    return;
  }
  if (tag === 'ul' || tag === 'ol') {
    writer.enterList(tag === 'ol');
    renderChildren(node.children, writer, context);
    writer.leaveList();
    return;
  }
  if (tag === 'li') {
    writer.startListItem();
    renderChildren(node.children, writer, context);
    writer.endLine();
    return;
  }
  const blockBreak = paragraphTags.has(tag)
    ? () => writer.paragraphBreak()
    : lineTags.has(tag) ? () => writer.endLine() : undefined;
  blockBreak?.();
  renderChildren(node.children, writer, context);
  blockBreak?.();
}

function isDropped(element: HtmlElement): boolean {
  const attributes = element.attribs;
  if (droppedTags.has(element.name.toLowerCase())) return true;
  if (attributes.hidden !== undefined) return true;
  const style = attributes.style;
  if (style && /(display\s*:\s*none|visibility\s*:\s*hidden)/i.test(style)) return true;
  if (attributes.id && droppedIds.has(attributes.id)) return true;
  const classes = attributes.class;
  if (classes) {
    for (const name of classes.split(/\s+/)) if (droppedClasses.has(name)) return true;
  }
  return false;
}

function renderHeading(element: HtmlElement, level: number, writer: PlainTextWriter, context: RenderContext): void {
  const title = inlineText(element.children);
  if (title === '') return;
  if (context.insideCell) {
    writer.endLine();
    writer.write(title);
    writer.endLine();
    return;
  }
  if (backMatterTitles.has(title.toLowerCase().replace(/[:.]$/, ''))) {
    context.cut.reached = true;
    return;
  }
  writer.paragraphBreak();
  writer.write(`${'#'.repeat(level)} ${title}`);
  writer.paragraphBreak();
}

/** Children rendered on their own and flattened to one line (headings, table cells, captions). */
function inlineText(nodes: readonly HtmlNode[]): string {
  const writer = new PlainTextWriter();
  renderChildren(nodes, writer, { insideCell: true, cut: { reached: false } });
  return writer.result().replace(/\s*\n\s*/g, ' ');
}

/**
 * One line per row, cells joined by ` | `, with row and column spans expanded so that every row has
 * every cell (see `expandTableSpans`); a row that is one cell spanning the whole table (a section
 * title inside it) is written once. A row whose cells hold nested tables is a layout row: its cells
 * are rendered as blocks so that the nested rows keep their own lines. What a malformed table holds
 * outside its cells is kept where a browser shows it (see `tableSegments`).
 */
function renderTable(table: HtmlElement, writer: PlainTextWriter, context: RenderContext): void {
  for (const segment of tableSegments(table)) {
    if ('attribs' in segment) renderTable(segment, writer, context);
    else renderTableSegment(segment, writer, context);
  }
}

function renderTableSegment({ fostered, captions, rows: tableRows }: TableSegment, writer: PlainTextWriter, context: RenderContext): void {
  renderChildren(fostered, writer, context);
  if (captions.length === 0 && tableRows.length === 0) return;
  writer.paragraphBreak();
  for (const caption of captions) {
    writer.write(inlineText(caption.children));
    writer.endLine();
  }
  const rows = tableRows.map(({ cells, group }) => {
    const layout = cells.some((cell) => containsTable(cell));
    const texts = cells.map((cell) => (layout ? '' : inlineText(cell.children)));
    return { cells, layout, texts, group };
  });
  const grid = expandTableSpans(rows.map(({ cells, texts, group }) => ({
    group,
    cells: cells.map((cell, index) => ({
      text: texts[index]!,
      rowSpan: spanAttribute(cell.attribs.rowspan),
      columnSpan: spanAttribute(cell.attribs.colspan),
    })),
  })));
  rows.forEach((row, index) => {
    if (row.layout) {
      for (const cell of row.cells) {
        writer.endLine();
        renderChildren(cell.children, writer, context);
        writer.endLine();
      }
      return;
    }
    // Empty cells are kept so that values stay under their column; rows with no text of their own are skipped.
    if (row.texts.every((text) => text === '')) return;
    const { cells, wholeRowCell } = grid[index]!;
    writer.endLine();
    writer.write(wholeRowCell ? cells[0]! : cells.join(' | '));
    writer.endLine();
  });
  writer.paragraphBreak();
}

/** A `rowspan`/`colspan` value as HTML parses it: leading digits; absent or unparsable means 1. */
function spanAttribute(value: string | undefined): number {
  const digits = value === undefined ? null : /^\s*(\d+)/.exec(value);
  return digits ? Number(digits[1]) : 1;
}

/** A stretch of a table up to a table nested directly in it, or to its end. */
interface TableSegment {
  /** Text and elements outside any cell, which a browser moves before the table ("foster parenting"). */
  fostered: HtmlNode[];
  captions: HtmlElement[];
  /** Each row's cells, with its row group (each section, or each run of rows placed directly in the table). */
  rows: { cells: HtmlElement[]; group: number }[];
}

/**
 * The table as a browser builds it from what was written (HTML's "in table" insertion modes), so that
 * no text it shows is lost: rows through thead/tbody/tfoot, never into a table nested in a cell;
 * cells written outside a `<tr>` make a row of their own; text and other elements outside any cell
 * are shown before the table; a `<table>` tag inside the table, outside any cell, ends it there and
 * starts the nested table after it (returned in place as its element). Stray end tags such as a second
 * `</td>` are already dropped by the parser, as a browser ignores them.
 */
function tableSegments(table: HtmlElement): Array<TableSegment | HtmlElement> {
  const segments: Array<TableSegment | HtmlElement> = [];
  let segment: TableSegment = { fostered: [], captions: [], rows: [] };
  let group = 0;
  let directRun = false;
  let row: HtmlElement[] | undefined;
  const endRow = () => {
    if (row && row.length > 0) segment.rows.push({ cells: row, group });
    row = undefined;
  };
  const startRow = (where: 'table' | 'section' | 'row') => {
    // Rows written directly in the table share an implied tbody until a section starts.
    if (where === 'table' && !directRun) group += 1;
    if (where === 'table') directRun = true;
    row = [];
  };
  const place = (node: HtmlNode, where: 'table' | 'section' | 'row'): void => {
    if (node.type === ElementType.Text) {
      if (node.data.trim() !== '') segment.fostered.push(node);
      return;
    }
    if (!('attribs' in node) || isDropped(node)) return;
    const tag = node.name.toLowerCase();
    if (tag === 'td' || tag === 'th') {
      if (!row) startRow(where);
      row!.push(node);
    } else if (tag === 'tr') {
      endRow();
      startRow(where === 'row' ? 'section' : where);
      for (const child of node.children) place(child, 'row');
      endRow();
    } else if (tag === 'thead' || tag === 'tbody' || tag === 'tfoot') {
      endRow();
      group += 1;
      directRun = false;
      for (const child of node.children) place(child, 'section');
      endRow();
    } else if (tag === 'caption') {
      segment.captions.push(node);
    } else if (tag === 'table') {
      endRow();
      segments.push(segment, node);
      segment = { fostered: [], captions: [], rows: [] };
      directRun = false;
    } else if (tag !== 'colgroup' && tag !== 'col') {
      segment.fostered.push(node);
    }
  };
  for (const child of table.children) place(child, 'table');
  endRow();
  segments.push(segment);
  return segments;
}

function containsTable(element: HtmlElement): boolean {
  return element.children.some(
    (child) => 'attribs' in child && !isDropped(child) && (child.name.toLowerCase() === 'table' || containsTable(child)),
  );
}

/** Text of a `<pre>` with its line structure; `<br>` counts as a newline. */
function preformattedText(element: HtmlElement): string {
  let text = '';
  for (const child of element.children) {
    if (child.type === ElementType.Text) text += child.data;
    else if ('attribs' in child && !isDropped(child)) {
      text += child.name.toLowerCase() === 'br' ? '\n' : preformattedText(child);
    }
  }
  return text;
}

/**
 * Accumulates lines. Inline text is whitespace-collapsed and joined without added spaces (so
 * `<b>4</b>-star` stays `4-star`); block boundaries end the line; paragraph breaks leave exactly one
 * blank line before the next content, never at the start or end.
 */
class PlainTextWriter {
  private readonly lines: string[] = [];
  private line = '';
  private lineStarted = false;
  private pendingSpace = false;
  private blankLinePending = false;
  /** One entry per open list: whether it is ordered, and the number of items seen so far. */
  private readonly lists: { ordered: boolean; items: number }[] = [];
  /** Marker for the first line of the current list item, consumed when that line starts. */
  private pendingMarker: string | undefined;

  write(raw: string): void {
    const collapsed = raw.replace(/\s+/g, ' ');
    if (collapsed === '') return;
    if (collapsed.startsWith(' ')) this.pendingSpace = true;
    const words = collapsed.trim();
    if (words === '') return;
    if (!this.lineStarted) this.startLine();
    else if (this.pendingSpace) this.line += ' ';
    this.line += words;
    this.pendingSpace = collapsed.endsWith(' ');
  }

  /** `<br>`: ends the line; a second one in a row leaves a blank line. */
  lineBreak(): void {
    if (this.lineStarted) this.endLine();
    else this.blankLinePending = true;
  }

  endLine(): void {
    if (this.lineStarted) this.lines.push(this.line.trimEnd());
    this.line = '';
    this.lineStarted = false;
    this.pendingSpace = false;
  }

  /** Inside lists a paragraph only ends the line, so items stay on consecutive lines. */
  paragraphBreak(): void {
    this.endLine();
    if (this.lists.length === 0) this.blankLinePending = true;
  }

  preformatted(text: string): void {
    this.paragraphBreak();
    let previousBlank = true;
    for (const rawLine of text.replace(/\r\n?/g, '\n').split('\n')) {
      const line = rawLine.trimEnd();
      if (line === '') {
        if (!previousBlank) this.blankLinePending = true;
        previousBlank = true;
        continue;
      }
      this.startLine();
      this.line += line;
      this.endLine();
      previousBlank = false;
    }
    this.paragraphBreak();
  }

  enterList(ordered: boolean): void {
    if (this.lists.length === 0) this.paragraphBreak();
    else this.endLine();
    this.lists.push({ ordered, items: 0 });
  }

  leaveList(): void {
    this.endLine();
    this.lists.pop();
    this.pendingMarker = undefined;
    if (this.lists.length === 0) this.blankLinePending = true;
  }

  startListItem(): void {
    this.endLine();
    const list = this.lists[this.lists.length - 1];
    const depth = Math.max(this.lists.length, 1);
    if (list) list.items += 1;
    const bullet = list?.ordered ? `${list.items}. ` : '- ';
    this.pendingMarker = '  '.repeat(depth - 1) + bullet;
  }

  result(): string {
    this.endLine();
    return this.lines.join('\n').trim();
  }

  private startLine(): void {
    if (this.blankLinePending && this.lines.length > 0 && this.lines[this.lines.length - 1] !== '') {
      this.lines.push('');
    }
    this.blankLinePending = false;
    this.line = this.pendingMarker ?? '  '.repeat(this.lists.length);
    this.pendingMarker = undefined;
    this.lineStarted = true;
    this.pendingSpace = false;
  }
}
