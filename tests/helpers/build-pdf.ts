import { deflateSync } from 'node:zlib';

/** One run of text drawn at (x, y) in points from the bottom-left corner of the page. */
export interface PdfText {
  x: number;
  y: number;
  text: string;
  /** Font size in points (default 11). */
  size?: number;
  bold?: boolean;
}

/** A page: text runs, or a grey image over the whole page with no text at all (a scan). */
export type PdfPage = { texts: PdfText[] } | { scannedImage: true };

export interface PdfBuildOptions {
  /**
   * `table` (the default): a cross-reference table, as browsers and most generators write one.
   * `stream`: the objects that are not streams packed into an object stream, found through a
   * cross-reference stream with PNG predictors (PDF 1.5), as pdfTeX and qpdf write them.
   */
  crossReference?: 'table' | 'stream';
  /** The page size set once on the page tree, for every page to inherit, instead of on each page. */
  inheritedMediaBox?: boolean;
}

const pageWidth = 612;
const pageHeight = 792;

/**
 * A small, valid PDF built by hand: US Letter pages, the standard Helvetica fonts in
 * WinAnsiEncoding (so accented Latin letters and en dashes work), text placed at exact
 * coordinates so that tests can lay out columns and rows the way real reports do. A scanned page
 * is one 8×8 grey image scaled over the page, with no text layer, like a scanner's output.
 * Kept dependency-free so that the fixtures can be regenerated anywhere the tests run.
 */
export function buildPdf(pages: PdfPage[], { crossReference = 'table', inheritedMediaBox = false }: PdfBuildOptions = {}): Uint8Array {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add('');
  const pageTree = add('');
  const regular = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const pageIds: number[] = [];
  for (const page of pages) {
    let content: string;
    let resources: string;
    if ('scannedImage' in page) {
      const pixels = Array.from({ length: 64 }, (_, index) => (index * 37) % 256);
      const hex = pixels.map((pixel) => pixel.toString(16).padStart(2, '0')).join('');
      const image = add(
        `<< /Type /XObject /Subtype /Image /Width 8 /Height 8 /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /ASCIIHexDecode /Length ${hex.length + 1} >>\nstream\n${hex}>\nendstream`,
      );
      content = `q ${pageWidth} 0 0 ${pageHeight} 0 0 cm /Scan Do Q`;
      resources = `<< /XObject << /Scan ${image} 0 R >> >>`;
    } else {
      content = page.texts
        .map((run) => `BT /${run.bold ? 'F2' : 'F1'} ${run.size ?? 11} Tf ${run.x} ${run.y} Td (${pdfString(run.text)}) Tj ET`)
        .join('\n');
      resources = `<< /Font << /F1 ${regular} 0 R /F2 ${bold} 0 R >> >>`;
    }
    const stream = add(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
    const mediaBox = inheritedMediaBox ? '' : ` /MediaBox [0 0 ${pageWidth} ${pageHeight}]`;
    pageIds.push(add(`<< /Type /Page /Parent ${pageTree} 0 R${mediaBox} /Resources ${resources} /Contents ${stream} 0 R >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pageTree} 0 R >>`;
  const treeMediaBox = inheritedMediaBox ? ` /MediaBox [0 0 ${pageWidth} ${pageHeight}]` : '';
  objects[pageTree - 1] = `<< /Type /Pages${treeMediaBox} /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;
  if (crossReference === 'stream') return withCrossReferenceStream(objects, catalog);

  let file = '%PDF-1.4\n%\xE2\xE3\xCF\xD3\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(file.length);
    file += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = file.length;
  file += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) file += `${String(offset).padStart(10, '0')} 00000 n \n`;
  file += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Every character of `file` is one byte (Latin-1), so offsets above are byte offsets.
  return Uint8Array.from(file, (character) => character.charCodeAt(0));
}

/** WinAnsiEncoding bytes that differ from Latin-1 (the ones tests use). */
const winAnsiExtras: Record<string, number> = { '–': 0x96, '—': 0x97, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '€': 0x80, '•': 0x95 };

/** A PDF literal string: WinAnsi bytes, with parentheses, backslashes and non-ASCII bytes escaped in octal. */
function pdfString(text: string): string {
  let escaped = '';
  for (const character of text) {
    const code = winAnsiExtras[character] ?? character.charCodeAt(0);
    if (code > 0xff) throw new RangeError(`buildPdf: "${character}" has no WinAnsiEncoding byte`);
    if (character === '(' || character === ')' || character === '\\') escaped += `\\${character}`;
    else if (code < 0x20 || code > 0x7e) escaped += `\\${code.toString(8).padStart(3, '0')}`;
    else escaped += character;
  }
  return escaped;
}

/**
 * The file with its objects that are not streams in one object stream and a cross-reference stream
 * (entries of 1 + 4 + 2 bytes, each row PNG-"Up" filtered, then deflated), as PDF 1.5 writers do.
 */
function withCrossReferenceStream(objects: string[], catalog: number): Uint8Array {
  const isStream = (body: string) => body.includes('\nstream\n');
  const packed = objects.flatMap((body, index) => (isStream(body) ? [] : [index + 1]));
  const objectStream = objects.length + 1;
  const crossReferenceStream = objects.length + 2;
  let header = '';
  let contents = '';
  for (const number of packed) {
    header += `${number} ${contents.length} `;
    contents += `${objects[number - 1]}\n`;
  }
  const streamData = deflateSync(Buffer.from(header + contents, 'latin1'));
  let file = '%PDF-1.5\n%\xE2\xE3\xCF\xD3\n';
  const offsets = new Map<number, number>();
  const write = (number: number, body: string) => {
    offsets.set(number, file.length);
    file += `${number} 0 obj\n${body}\nendobj\n`;
  };
  objects.forEach((body, index) => {
    if (isStream(body)) write(index + 1, body);
  });
  write(objectStream, `<< /Type /ObjStm /N ${packed.length} /First ${header.length} /Filter /FlateDecode /Length ${streamData.length} >>\nstream\n${streamData.toString('latin1')}\nendstream`);
  const crossReference = file.length;
  offsets.set(crossReferenceStream, crossReference);
  const rows: number[][] = [[0, 0, 0, 0, 0, 0xff, 0xff]];
  for (let number = 1; number <= crossReferenceStream; number += 1) {
    const inStream = packed.indexOf(number);
    const [type, second, third] = inStream >= 0 ? [2, objectStream, inStream] : [1, offsets.get(number)!, 0];
    rows.push([type, (second >>> 24) & 0xff, (second >>> 16) & 0xff, (second >>> 8) & 0xff, second & 0xff, (third >>> 8) & 0xff, third & 0xff]);
  }
  const filtered = rows.flatMap((row, rowIndex) => [2, ...row.map((byte, column) => (byte - (rowIndex > 0 ? rows[rowIndex - 1]![column]! : 0)) & 0xff)]);
  const data = deflateSync(Buffer.from(filtered));
  write(crossReferenceStream, `<< /Type /XRef /Size ${crossReferenceStream + 1} /Root ${catalog} 0 R /W [1 4 2] /DecodeParms << /Columns 7 /Predictor 12 >> /Filter /FlateDecode /Length ${data.length} >>\nstream\n${data.toString('latin1')}\nendstream`);
  file += `startxref\n${crossReference}\n%%EOF\n`;
  return Uint8Array.from(file, (character) => character.charCodeAt(0));
}
