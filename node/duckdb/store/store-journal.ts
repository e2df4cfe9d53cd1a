import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { firstLine, SragError } from '../../../core/index.ts';
import type { JournalEntry } from './journal-entry.ts';

/**
 * The store's write-ahead journal for the SQL functions: a file beside the database
 * (`<database>.journal`), a line per entry, `<sequence> <JSON>`. While a statement runs, the thread
 * that owns DuckDB is blocked in the statement's callback and cannot await a query; so each write
 * the LLM bridge hands over (a reply, a record, a log entry) is appended here at once and synced
 * before the bridge hears back: a process killed mid-scan loses nothing it paid for. `SragStore`
 * moves the entries into the ordinary tables after the statement (or when the database is next
 * opened), a slice per transaction, each recording the last sequence it applied
 * (`srag_journal_applied`), so that an entry is applied once whatever stops it; a file wholly
 * applied is emptied.
 *
 * A file, not a DuckDB table: nothing a statement commits to the database can leave memory before
 * a checkpoint, and none can run while the statement's own transaction is open — so journaling
 * (and applying) into the database during a 100,000-page scan kept ~5 KB per page in memory until
 * its end (a million pages: 10 GB). The file keeps them on disk.
 */
export class StoreJournal {
  private constructor(private readonly path: string, private readonly file: number, private sequence: number) {}

  /** The journal file of the database at `databasePath`. */
  static fileOf(databasePath: string): string {
    return `${databasePath}.journal`;
  }

  /**
   * Opens the file for appending, numbering entries after `lastSequence` (the last one the database
   * applied, or any higher one in its journal). A last line a kill cut short is ended first, so that
   * the next entry starts a line of its own.
   */
  static open(file: string, lastSequence: number): StoreJournal {
    const descriptor = openSync(file, 'a+');
    const { size } = fstatSync(descriptor);
    if (size > 0) {
      const last = Buffer.alloc(1);
      readSync(descriptor, last, 0, 1, size - 1);
      if (last[0] !== 0x0a) writeSync(descriptor, '\n');
    }
    return new StoreJournal(file, descriptor, Math.max(lastSequence, lastSequenceIn(file)));
  }

  /** Appends and syncs `entries` before returning; throws a `STORE_FAILED` error when it cannot. */
  appendSync(entries: readonly JournalEntry[]): void {
    if (entries.length === 0) return;
    let text = '';
    for (const entry of entries) text += `${++this.sequence} ${JSON.stringify(entry)}\n`;
    try {
      const bytes = Buffer.from(text);
      for (let written = 0; written < bytes.length;) written += writeSync(this.file, bytes, written);
      fdatasyncSync(this.file);
    } catch (error) {
      const message = firstLine((error as Error).message);
      throw new SragError({
        code: 'STORE_FAILED',
        message: `cannot write to ${this.path}: ${message}`,
        hint: 'fix the cause (disk space, permissions) and run the statement again: replies saved before are kept, the rest resumes',
        cause: error,
      });
    }
  }

  /** Closes the file, and removes it when it is empty (every entry applied): no stray file beside the database. */
  close(): void {
    const stats = fstatSync(this.file);
    closeSync(this.file);
    if (stats.isFile() && stats.size === 0) rmSync(this.path, { force: true });
  }
}

/** One slice of a journal file: its entries in order, and the sequence of the last. */
export interface JournalSlice {
  entries: JournalEntry[];
  last: number;
}

/** Bytes read from the file at a time. */
const readBytes = 4 * 1024 * 1024;

/**
 * The entries of the journal `file` after sequence `after`, in slices of at most `perSlice`, read
 * a part of the file at a time (a million pages' journal is gigabytes). A line that does not
 * parse — one a kill cut short — is left out. `whole` is true when the file was read to its end and
 * has not grown since (nothing appended meanwhile): then the caller may empty it (`emptyJournal`).
 */
export function* readJournalSlices(file: string, after: number, perSlice: number): Generator<JournalSlice, { bytes: number }> {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } catch {
    return { bytes: 0 };
  }
  try {
    // Up to the size it has now: what is appended meanwhile is the next apply's (and keeps the file from being emptied).
    const { size } = fstatSync(descriptor);
    const buffer = Buffer.alloc(Math.min(readBytes, size));
    let position = 0;
    let rest = '';
    let entries: JournalEntry[] = [];
    let last = after;
    while (position < size) {
      const read = readSync(descriptor, buffer, 0, Math.min(buffer.length, size - position), position);
      if (read === 0) break;
      position += read;
      const text = rest + buffer.toString('utf8', 0, read);
      const end = text.lastIndexOf('\n');
      rest = text.slice(end + 1);
      for (let start = 0; start < end;) {
        let stop = text.indexOf('\n', start);
        if (stop < 0 || stop > end) stop = end;
        const line = parseLine(text.slice(start, stop));
        start = stop + 1;
        if (!line || line.sequence <= after) continue;
        entries.push(line.entry);
        last = line.sequence;
        if (entries.length >= perSlice) {
          yield { entries, last };
          entries = [];
        }
      }
    }
    if (entries.length > 0) yield { entries, last };
    return { bytes: position };
  } finally {
    closeSync(descriptor);
  }
}

/** Empties the journal `file` when it still holds `bytes` (nothing was appended after it was read); says whether it did. */
export function emptyJournal(file: string, bytes: number): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r+');
  } catch {
    return false;
  }
  try {
    if (fstatSync(descriptor).size !== bytes) return false;
    ftruncateSync(descriptor, 0);
    return true;
  } finally {
    closeSync(descriptor);
  }
}

function parseLine(line: string): { sequence: number; entry: JournalEntry } | undefined {
  const space = line.indexOf(' ');
  const sequence = Number(line.slice(0, space));
  if (space < 1 || !Number.isSafeInteger(sequence)) return undefined;
  try {
    return { sequence, entry: JSON.parse(line.slice(space + 1)) as JournalEntry };
  } catch {
    return undefined;
  }
}

/** The highest sequence in the journal `file` (0 when it has none): read through, a line at a time (it is empty after the store's open applied it). */
function lastSequenceIn(file: string): number {
  let last = 0;
  const reading = readJournalSlices(file, 0, 1);
  for (let next = reading.next(); !next.done; next = reading.next()) last = Math.max(last, next.value.last);
  return last;
}
