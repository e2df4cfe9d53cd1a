import { PdfDictionary, PdfReference, type PdfStream, type PdfValue } from './pdf-values.ts';

const whitespace = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const delimiters = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);

/** PDF's syntax over bytes, enough to read dictionaries, arrays, references and numbers. */
export class PdfLexer {
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
