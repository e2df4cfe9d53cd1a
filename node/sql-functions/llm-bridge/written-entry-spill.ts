import { mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Texts kept on disk by key, for a copy that must not hold them all in memory but may be asked for
 * one again (see `IngestionLogCopy.forget`): each is appended to a file of its own, and only its
 * place is kept (a slot of two numbers and a map entry, ~50 bytes a key, where the text took
 * ~1.2 KB). The file is removed as soon as it is open where the system allows it (it then goes with
 * the process), elsewhere when the thread exits. A text put again is appended again: the file only
 * grows while it lives, by what the copy let go of.
 */
export class WrittenEntrySpill {
  private readonly file: number;
  /** Key → its slot in `starts` and `lengths`. */
  private readonly slots = new Map<string, number>();
  private starts = new Float64Array(1024);
  private lengths = new Float64Array(1024);
  private size = 0;
  private nextSlot = 0;

  constructor() {
    const directory = mkdtempSync(join(tmpdir(), 'srag-spill-'));
    this.file = openSync(join(directory, 'entries'), 'w+');
    try {
      rmSync(directory, { recursive: true, force: true });
    } catch {
      // An open file cannot be removed (Windows): it goes when the thread exits.
      process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
    }
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }

  put(key: string, text: string): void {
    const bytes = Buffer.from(text);
    for (let written = 0; written < bytes.length;) written += writeSync(this.file, bytes, written, bytes.length - written, this.size + written);
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.nextSlot++;
      if (slot === this.starts.length) {
        this.starts = grown(this.starts);
        this.lengths = grown(this.lengths);
      }
      this.slots.set(key, slot);
    }
    this.starts[slot] = this.size;
    this.lengths[slot] = bytes.length;
    this.size += bytes.length;
  }

  get(key: string): string | undefined {
    const slot = this.slots.get(key);
    if (slot === undefined) return undefined;
    const bytes = Buffer.alloc(this.lengths[slot]!);
    for (let read = 0; read < bytes.length;) read += readSync(this.file, bytes, read, bytes.length - read, this.starts[slot]! + read);
    return bytes.toString('utf8');
  }

  /** Forgets `key`'s text (its bytes stay in the file; its slot is not used again). */
  delete(key: string): void {
    this.slots.delete(key);
  }

  keys(): IterableIterator<string> {
    return this.slots.keys();
  }
}

function grown(array: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> {
  const larger = new Float64Array(array.length * 2);
  larger.set(array);
  return larger;
}
