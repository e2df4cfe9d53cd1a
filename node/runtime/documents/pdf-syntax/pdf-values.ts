/**
 * The values of PDF's object syntax that srag's page-tree reader keeps (ISO 32000-1, 7.3): numbers,
 * names and keywords as text, references, arrays, dictionaries (each entry with its text, to write
 * it again), and streams by where their data starts. Strings are kept only as `(string)`.
 */

/** `N G R`: a reference to object N of generation G. */
export class PdfReference {
  constructor(readonly number: number, readonly generation: number) {}
  get key(): string {
    return `${this.number} ${this.generation}`;
  }
  get text(): string {
    return `${this.number} ${this.generation} R`;
  }
}

/** A dictionary as written: each entry's value, and its text (`/Key value`) to write it again. */
export class PdfDictionary {
  readonly entries = new Map<string, { value: PdfValue; text: string }>();
  value(key: string): PdfValue | undefined {
    return this.entries.get(key)?.value;
  }
}

/** Numbers, names (`/Name`) and keywords as text, references, arrays, dictionaries; strings as `(string)`. */
export type PdfValue = number | string | PdfReference | PdfDictionary | PdfValue[];

/** A stream object: its dictionary and where its data starts in `source`. */
export interface PdfStream {
  dictionary: PdfDictionary;
  source: Uint8Array;
  dataStart: number;
}

/** Whether an object read is a stream rather than a value. */
export function isStream(value: PdfValue | PdfStream | undefined): value is PdfStream {
  return typeof value === 'object' && !Array.isArray(value) && 'dataStart' in value;
}
