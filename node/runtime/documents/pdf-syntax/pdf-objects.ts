import { inflateSync } from 'node:zlib';
import { PdfLexer } from './pdf-lexer.ts';
import { isStream, PdfDictionary, PdfReference, type PdfStream, type PdfValue } from './pdf-values.ts';

type CrossReferenceEntry = { inStream: false; offset: number } | { inStream: true; stream: number; index: number };

/** The objects of a PDF by number, through its cross-reference sections (tables or streams, newest first). */
export class PdfObjects {
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

  /**
   * Newer sections are read first: an object they list keeps their entry. Free entries are passed
   * over, so that a hybrid file's table, which lists its compressed objects as free, does not hide
   * them from the stream its `/XRefStm` names.
   */
  private add(number: number, entry: CrossReferenceEntry | undefined): void {
    this.largestNumber = Math.max(this.largestNumber, number);
    if (entry && !this.entries.has(number)) this.entries.set(number, entry);
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
