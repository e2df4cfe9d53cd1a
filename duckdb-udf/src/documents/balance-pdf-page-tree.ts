import { inflateSync } from 'node:zlib';

/** A node of the page tree with more kids than this gets levels of intermediate nodes of at most this many. */
const widestNode = 32;
/** Below this many pages a flat tree costs pdf.js little, and the file is left as it is. */
const fewestPages = 256;

/**
 * The PDF with its page tree made balanced, by an incremental update appended to it, and its page count: pdf.js finds
 * page N by walking the tree from its root, and a node that lists every page itself (many
 * generators write one) makes each lookup walk all of them: reading 16,000 pages took 124 s of CPU,
 * against 11 s for the same pages under nodes of 64 (pdf.js rejected assuming a flat list, see
 * mozilla/pdf.js#20359). Each node of more than `widestNode` kids keeps its number and every entry
 * but its kids, which move under new intermediate nodes; pages keep their own objects and their
 * `/Parent`, so what they inherit (resources, boxes, rotation) does not change, nor their order.
 * Returns `bytes` itself when there is nothing to balance, when the file has more than `mostPages`
 * pages (it is refused, and needs no balancing first), or anything about the file is beyond this
 * small reader (an encrypted file, filters other than Flate): pdf.js then reads it as it is.
 */
export function balancePdfPageTree(bytes: Uint8Array, { mostPages = Number.POSITIVE_INFINITY }: { mostPages?: number } = {}): BalancedPdf {
  const read: BalancedPdf = { bytes, pageCount: undefined };
  try {
    read.bytes = balanced(bytes, mostPages, read) ?? bytes;
  } catch {
    read.bytes = bytes;
  }
  return read;
}

export interface BalancedPdf {
  /** The file to give pdf.js: the one given, or it with the update appended. */
  bytes: Uint8Array;
  /** The page count its tree's root declares, when this reader got that far: a file of too many pages can be refused before pdf.js opens it. */
  pageCount: number | undefined;
}

function balanced(bytes: Uint8Array, mostPages: number, read: BalancedPdf): Uint8Array | undefined {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // pdf.js counts offsets from the header, wherever it starts in the first kilobyte.
  const base = file.subarray(0, 1024).indexOf('%PDF-');
  if (base < 0) return undefined;
  const objects = new PdfObjects(file, base);
  const { trailer, startxref } = objects;
  if (trailer.entries.has('Encrypt')) return undefined;
  const catalog = objects.resolve(trailer.value('Root'));
  const rootReference = catalog instanceof PdfDictionary ? catalog.value('Pages') : undefined;
  if (!(rootReference instanceof PdfReference)) return undefined;
  const root = objects.resolve(rootReference);
  const pages = root instanceof PdfDictionary ? Number(root.value('Count')) : Number.NaN;
  if (Number.isSafeInteger(pages) && pages >= 0) read.pageCount = pages;
  if (!(pages > fewestPages) || pages > mostPages) return undefined;

  let nextNumber = Math.max(Number(trailer.value('Size')) || 0, objects.largestNumber + 1);
  const written: Array<{ reference: PdfReference; body: string }> = [];
  const visited = new Set<string>();
  const pending: PdfReference[] = [rootReference];
  while (pending.length > 0) {
    const reference = pending.pop()!;
    if (visited.has(reference.key)) return undefined;
    visited.add(reference.key);
    const node = objects.resolve(reference);
    if (!(node instanceof PdfDictionary)) return undefined;
    const kids = objects.resolve(node.value('Kids'));
    if (!Array.isArray(kids)) return undefined;
    const counts: number[] = [];
    for (const kid of kids) {
      if (!(kid instanceof PdfReference)) return undefined;
      const dictionary = objects.resolve(kid);
      if (!(dictionary instanceof PdfDictionary)) return undefined;
      const type = dictionary.value('Type');
      if (type === '/Pages' || (type !== '/Page' && dictionary.entries.has('Kids'))) {
        const count = Number(objects.resolve(dictionary.value('Count')));
        if (!Number.isSafeInteger(count) || count < 0) return undefined;
        counts.push(count);
        pending.push(kid);
      } else {
        counts.push(1);
      }
    }
    if (kids.length <= widestNode) continue;
    // Levels of intermediate nodes, bottom up, until the node's own kids fit.
    let level = (kids as PdfReference[]).map((kid, index) => ({ reference: kid.text, count: counts[index]! }));
    while (level.length > widestNode) {
      const above: typeof level = [];
      for (let start = 0; start < level.length; start += widestNode) {
        const group = level.slice(start, start + widestNode);
        const count = group.reduce((sum, kid) => sum + kid.count, 0);
        const intermediate = new PdfReference(nextNumber, 0);
        nextNumber += 1;
        written.push({ reference: intermediate, body: `<< /Type /Pages /Parent ${reference.text} /Kids [${group.map((kid) => kid.reference).join(' ')}] /Count ${count} >>` });
        above.push({ reference: intermediate.text, count });
      }
      level = above;
    }
    const kept = [...node.entries].filter(([key]) => key !== 'Kids' && key !== 'Count').map(([, entry]) => entry.text);
    const total = level.reduce((sum, kid) => sum + kid.count, 0);
    written.push({ reference, body: `<< ${kept.join(' ')} /Kids [${level.map((kid) => kid.reference).join(' ')}] /Count ${total} >>` });
  }
  if (written.length === 0) return undefined;

  const fileLength = file.length - base;
  let update = '\n';
  const offsets = new Map<PdfReference, number>();
  for (const { reference, body } of written) {
    offsets.set(reference, fileLength + update.length);
    update += `${reference.number} ${reference.generation} obj\n${body}\nendobj\n`;
  }
  const crossReference = fileLength + update.length;
  update += 'xref\n';
  for (const { reference } of written) {
    const offset = String(offsets.get(reference)).padStart(10, '0');
    update += `${reference.number} 1\n${offset} ${String(reference.generation).padStart(5, '0')} n\r\n`;
  }
  const carried = ['Root', 'Info', 'ID'].flatMap((key) => trailer.entries.get(key)?.text ?? []);
  update += `trailer\n<< /Size ${nextNumber} ${carried.join(' ')} /Prev ${startxref} >>\nstartxref\n${crossReference}\n%%EOF\n`;
  // An array of its own: pdf.js may take (transfer) the buffer it is given, never a shared pool's.
  const appended = Buffer.from(update, 'latin1');
  const output = new Uint8Array(file.length + appended.length);
  output.set(file);
  output.set(appended, file.length);
  return output;
}

class PdfReference {
  constructor(readonly number: number, readonly generation: number) {}
  get key(): string {
    return `${this.number} ${this.generation}`;
  }
  get text(): string {
    return `${this.number} ${this.generation} R`;
  }
}

/** A dictionary as written: each entry's value, and its text (`/Key value`) to write it again. */
class PdfDictionary {
  readonly entries = new Map<string, { value: PdfValue; text: string }>();
  value(key: string): PdfValue | undefined {
    return this.entries.get(key)?.value;
  }
}

/** Numbers, names (`/Name`) and keywords as text, references, arrays, dictionaries; strings as `(string)`. */
type PdfValue = number | string | PdfReference | PdfDictionary | PdfValue[];

/** A stream object: its dictionary and where its data starts in `source`. */
interface PdfStream {
  dictionary: PdfDictionary;
  source: Uint8Array;
  dataStart: number;
}

function isStream(value: PdfValue | PdfStream | undefined): value is PdfStream {
  return typeof value === 'object' && !Array.isArray(value) && 'dataStart' in value;
}

type CrossReferenceEntry = { inStream: false; offset: number } | { inStream: true; stream: number; index: number };

/** The objects of a PDF by number, through its cross-reference sections (tables or streams, newest first). */
class PdfObjects {
  readonly trailer: PdfDictionary;
  readonly startxref: number;
  largestNumber = 0;
  private readonly entries = new Map<number, CrossReferenceEntry>();
  private readonly objectStreams = new Map<number, { data: Uint8Array; offsets: Map<number, number>; first: number }>();

  constructor(private readonly file: Buffer, private readonly base: number) {
    const keyword = file.lastIndexOf('startxref');
    if (keyword < 0) throw new Error('no startxref');
    this.startxref = Number(new PdfLexer(file, keyword + 9).value());
    let trailer: PdfDictionary | undefined;
    const seen = new Set<number>();
    for (let section: number | undefined = this.startxref; section !== undefined && !seen.has(section);) {
      seen.add(section);
      const dictionary = this.readSection(base + section);
      trailer ??= dictionary;
      const stream = dictionary.value('XRefStm');
      if (typeof stream === 'number' && !seen.has(stream)) {
        seen.add(stream);
        this.readSection(base + stream);
      }
      const previous = dictionary.value('Prev');
      section = typeof previous === 'number' ? previous : undefined;
    }
    this.trailer = trailer!;
  }

  /** The value itself, or the object a reference names. */
  resolve(value: PdfValue | undefined): PdfValue | undefined {
    if (!(value instanceof PdfReference)) return value;
    const object = this.object(value.number);
    return isStream(object) ? object.dictionary : object;
  }

  private object(number: number): PdfValue | PdfStream | undefined {
    const entry = this.entries.get(number);
    if (!entry) return undefined;
    if (!entry.inStream) {
      const lexer = new PdfLexer(this.file, this.base + entry.offset);
      if (lexer.value() !== number) throw new Error(`object ${number} is not at its offset`);
      lexer.value();
      if (lexer.token() !== 'obj') throw new Error(`object ${number} has no obj keyword`);
      return lexer.object(this.file);
    }
    const stream = this.objectStream(entry.stream);
    const offset = stream.offsets.get(number);
    return offset === undefined ? undefined : new PdfLexer(stream.data, stream.first + offset).value();
  }

  private objectStream(number: number) {
    let stream = this.objectStreams.get(number);
    if (!stream) {
      const object = this.object(number);
      if (!isStream(object)) throw new Error(`object stream ${number} is not a stream`);
      const data = this.streamData(object);
      const lexer = new PdfLexer(data, 0);
      const offsets = new Map<number, number>();
      const count = Number(object.dictionary.value('N'));
      for (let index = 0; index < count; index += 1) offsets.set(Number(lexer.value()), Number(lexer.value()));
      stream = { data, offsets, first: Number(object.dictionary.value('First')) };
      this.objectStreams.set(number, stream);
    }
    return stream;
  }

  private readSection(at: number): PdfDictionary {
    const lexer = new PdfLexer(this.file, at);
    const first = lexer.token();
    if (first === 'xref') {
      for (let token = lexer.token(); token !== 'trailer'; token = lexer.token()) {
        const start = Number(token);
        const count = Number(lexer.token());
        if (!Number.isSafeInteger(start) || !Number.isSafeInteger(count)) throw new Error('bad cross-reference table');
        for (let index = 0; index < count; index += 1) {
          const offset = Number(lexer.token());
          lexer.token();
          const kind = lexer.token();
          this.add(start + index, kind === 'n' ? { inStream: false, offset } : undefined);
        }
      }
      const trailer = lexer.value();
      if (!(trailer instanceof PdfDictionary)) throw new Error('no trailer');
      return trailer;
    }
    // A cross-reference stream: `N G obj << /Type /XRef … >> stream`.
    lexer.token();
    if (lexer.token() !== 'obj') throw new Error('no cross-reference section');
    const stream = lexer.object(this.file);
    if (!isStream(stream)) throw new Error('no cross-reference stream');
    const { dictionary } = stream;
    const widths = dictionary.value('W');
    if (!Array.isArray(widths) || widths.length !== 3) throw new Error('bad /W');
    const [typeWidth, offsetWidth, thirdWidth] = widths.map(Number) as [number, number, number];
    const data = this.streamData(stream);
    const index = dictionary.value('Index');
    const ranges = Array.isArray(index) ? index.map(Number) : [0, Number(dictionary.value('Size'))];
    let at2 = 0;
    const field = (width: number, fallback: number) => {
      if (width === 0) return fallback;
      let value = 0;
      for (let byte = 0; byte < width; byte += 1) value = value * 256 + data[at2++]!;
      return value;
    };
    for (let range = 0; range + 1 < ranges.length; range += 2) {
      for (let number = ranges[range]!; number < ranges[range]! + ranges[range + 1]!; number += 1) {
        if (at2 + typeWidth + offsetWidth + thirdWidth > data.length) throw new Error('short cross-reference stream');
        const type = field(typeWidth, 1);
        const second = field(offsetWidth, 0);
        const third = field(thirdWidth, 0);
        this.add(number, type === 1 ? { inStream: false, offset: second } : type === 2 ? { inStream: true, stream: second, index: third } : undefined);
      }
    }
    return dictionary;
  }

  /** Newer sections are read first: an object they list keeps their entry. */
  private add(number: number, entry: CrossReferenceEntry | undefined): void {
    this.largestNumber = Math.max(this.largestNumber, number);
    if (this.entries.has(number) || !entry) {
      // A free entry in a newer section hides older ones too.
      if (!this.entries.has(number) && !entry) this.entries.set(number, { inStream: false, offset: -1 });
      return;
    }
    this.entries.set(number, entry);
  }

  /** A stream's data, Flate and PNG predictors undone; any other filter is beyond this reader. */
  private streamData({ dictionary, source, dataStart }: PdfStream): Uint8Array {
    const length = this.resolve(dictionary.value('Length'));
    const raw = typeof length === 'number' && dataStart + length <= source.length
      ? source.subarray(dataStart, dataStart + length)
      : source.subarray(dataStart, Math.max(dataStart, Buffer.from(source.buffer, source.byteOffset, source.byteLength).indexOf('endstream', dataStart)));
    const filter = dictionary.value('Filter');
    const filters = Array.isArray(filter) ? filter : filter === undefined ? [] : [filter];
    if (filters.length === 0) return raw;
    if (filters.length !== 1 || filters[0] !== '/FlateDecode') throw new Error('a filter this reader does not undo');
    const inflated = inflateSync(raw);
    const parameters = this.resolve(dictionary.value('DecodeParms'));
    const predictor = parameters instanceof PdfDictionary ? Number(parameters.value('Predictor') ?? 1) : 1;
    if (predictor < 10) {
      if (predictor > 1) throw new Error('a predictor this reader does not undo');
      return inflated;
    }
    const columns = parameters instanceof PdfDictionary ? Number(parameters.value('Columns') ?? 1) : 1;
    return unpredictPng(inflated, columns);
  }
}

/** PNG row filters undone (one byte a pixel, as cross-reference streams use them). */
function unpredictPng(data: Uint8Array, columns: number): Uint8Array {
  const rows = Math.floor(data.length / (columns + 1));
  const output = new Uint8Array(rows * columns);
  for (let row = 0; row < rows; row += 1) {
    const filter = data[row * (columns + 1)]!;
    for (let column = 0; column < columns; column += 1) {
      const raw = data[row * (columns + 1) + 1 + column]!;
      const left = column > 0 ? output[row * columns + column - 1]! : 0;
      const up = row > 0 ? output[(row - 1) * columns + column]! : 0;
      const upLeft = row > 0 && column > 0 ? output[(row - 1) * columns + column - 1]! : 0;
      let predicted = 0;
      if (filter === 1) predicted = left;
      else if (filter === 2) predicted = up;
      else if (filter === 3) predicted = (left + up) >> 1;
      else if (filter === 4) {
        const estimate = left + up - upLeft;
        const [toLeft, toUp, toUpLeft] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
        predicted = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft;
      }
      output[row * columns + column] = (raw + predicted) & 0xff;
    }
  }
  return output;
}

const whitespace = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const delimiters = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

/** PDF's syntax over bytes, enough to read dictionaries, arrays, references and numbers. */
class PdfLexer {
  constructor(private readonly source: Uint8Array, private at: number) {}

  /** The next token: a delimiter (`<<`, `[`, …) or a run of regular characters (a number, a keyword). */
  token(): string {
    this.skipSpace();
    const start = this.at;
    const byte = this.source[this.at];
    if (byte === undefined) throw new Error('unexpected end');
    if ((byte === 0x3c || byte === 0x3e) && this.source[this.at + 1] === byte) {
      this.at += 2;
      return byte === 0x3c ? '<<' : '>>';
    }
    if (delimiters.has(byte)) {
      this.at += 1;
      return String.fromCharCode(byte);
    }
    while (this.at < this.source.length && !whitespace.has(this.source[this.at]!) && !delimiters.has(this.source[this.at]!)) this.at += 1;
    return latin1(this.source, start, this.at);
  }

  /** One value; a number followed by `G R` is a reference. */
  value(): PdfValue {
    const token = this.token();
    if (token === '<<') return this.dictionary();
    if (token === '[') {
      const items: PdfValue[] = [];
      for (;;) {
        this.skipSpace();
        if (this.source[this.at] === 0x5d) {
          this.at += 1;
          return items;
        }
        items.push(this.value());
      }
    }
    if (token === '/') return `/${this.name()}`;
    if (token === '(') return this.literalString();
    if (token === '<') {
      const end = this.source.indexOf(0x3e, this.at);
      if (end < 0) throw new Error('unterminated string');
      this.at = end + 1;
      return '<string>';
    }
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(token)) {
      const number = Number(token);
      if (/^\d+$/.test(token)) {
        const mark = this.at;
        const generation = this.tryToken();
        if (generation !== undefined && /^\d+$/.test(generation) && this.tryToken() === 'R') return new PdfReference(number, Number(generation));
        this.at = mark;
      }
      return number;
    }
    return token;
  }

  /** The value of an indirect object after `N G obj`, as a stream when `stream` follows its dictionary. */
  object(source: Uint8Array): PdfValue | PdfStream {
    const value = this.value();
    if (!(value instanceof PdfDictionary)) return value;
    const mark = this.at;
    if (this.tryToken() !== 'stream') {
      this.at = mark;
      return value;
    }
    if (this.source[this.at] === 0x0d) this.at += 1;
    if (this.source[this.at] === 0x0a) this.at += 1;
    return { dictionary: value, source, dataStart: this.at };
  }

  private dictionary(): PdfDictionary {
    const dictionary = new PdfDictionary();
    for (;;) {
      this.skipSpace();
      const start = this.at;
      const token = this.token();
      if (token === '>>') return dictionary;
      if (token !== '/') throw new Error('a dictionary key is not a name');
      const key = this.name();
      const value = this.value();
      dictionary.entries.set(key, { value, text: latin1(this.source, start, this.at) });
    }
  }

  /** The characters of a name after its `/`. */
  private name(): string {
    const start = this.at;
    while (this.at < this.source.length && !whitespace.has(this.source[this.at]!) && !delimiters.has(this.source[this.at]!)) this.at += 1;
    return latin1(this.source, start, this.at);
  }

  private literalString(): string {
    let depth = 1;
    while (depth > 0) {
      const byte = this.source[this.at];
      if (byte === undefined) throw new Error('unterminated string');
      if (byte === 0x5c) this.at += 1;
      else if (byte === 0x28) depth += 1;
      else if (byte === 0x29) depth -= 1;
      this.at += 1;
    }
    return '(string)';
  }

  private tryToken(): string | undefined {
    try {
      return this.token();
    } catch {
      return undefined;
    }
  }

  private skipSpace(): void {
    for (;;) {
      const byte = this.source[this.at];
      if (byte === undefined) return;
      if (whitespace.has(byte)) this.at += 1;
      else if (byte === 0x25) {
        while (this.at < this.source.length && this.source[this.at] !== 0x0a && this.source[this.at] !== 0x0d) this.at += 1;
      } else return;
    }
  }
}

function latin1(source: Uint8Array, start: number, end: number): string {
  return Buffer.from(source.buffer, source.byteOffset + start, end - start).toString('latin1');
}
