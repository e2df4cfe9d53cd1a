import type { IngestionLogEntry, NormalizedValue } from '../../../core/index.ts';
import { WrittenEntrySpill } from './written-entry-spill.ts';

/** Reads the stored log entries of `sources` as JSON lines (`ingestionLogLineSql`); the sources without an entry have no line. */
export type ReadLogLines = (sources: readonly string[]) => Promise<string[]>;
/**
 * `ReadLogLines`, where null reads every stored entry of the schema, or gives undefined when they
 * take more than `wholeLogBytes` (the reads then stay by source).
 */
export type ReadLogLinesOrAll = (sources: readonly string[] | null) => Promise<string[] | undefined>;

/** The most the whole log is read at once: ~100,000 documents' lines (~0.6 KB each). */
export const wholeLogBytes = 64 * 1024 * 1024;

/** Reads of at most this many sources count as small (a chunk of the scalar form over `read_text` is a row). */
const smallRead = 64;
/**
 * Small reads after which the whole log is read, once: each read is a query that scans the
 * schema's log and record table, so a row at a time it grew with the square of the rows (a
 * rerun of the scalar form over 2,000 pages spent 5.3 ms a row reading its entries).
 */
const smallReadsBeforeWhole = 32;

/**
 * Sources whose entries are read at once: ~30 MB of lines, far below the longest string V8 can hold
 * (~512 MB, which the entries of a million documents would pass).
 */
export const sourcesPerRead = 50_000;

/**
 * The bridge's copy of one schema's ingestion log: what a run needs to tell an unchanged document
 * (and its row) from one to extract. The bridge cannot query DuckDB itself, so entries are read
 * from the database only when a run names their documents (`load`), and only those it has not read
 * yet; entries this session writes are kept over them. Each is held as JSON text and read when a run
 * asks for it: ~0.6 KB a document, where objects with their values took 3–4 KB, and a database of
 * 100,000 documents cost every statement 1.5 s and 270 MB when the whole log was read at open.
 */
export class IngestionLogCopy {
  /** Read from the database: source → its line, or null when it has no entry. */
  private readonly stored = new Map<string, string | null>();
  /** Written in this session (JSON of an `IngestionLogEntry` without its source, the key): newer than anything stored. */
  private readonly written = new Map<string, string>();
  /** Entries written in this session that a long scan let go of (see `forget`), on disk until asked for again. */
  private spill: WrittenEntrySpill | undefined;
  /** This statement's gone documents by content hash (see `lookForGone`); undefined before it looked. */
  private goneByContent: Map<string, IngestionLogEntry[]> | undefined;
  /** Records that followed their documents to new paths in this statement. */
  private readonly moved: Array<{ from: string; to: string }> = [];
  private smallReads = 0;
  /** Every stored entry has been read: a source not in `stored` has none. */
  private whole = false;
  /** The whole log was more than `wholeLogBytes`: reads stay by source. */
  private wholeTooLarge = false;

  /**
   * `readLines` undefined: the database has no entry for this schema (it was first seen in this
   * session). `readOutside` reads the lines of `logOutsideSql` (the schema's other documents with a record).
   */
  constructor(private readonly readLines?: ReadLogLinesOrAll, private readonly readOutside?: ReadLogLines) {}

  /**
   * Reads the entries of `sources` not read or written yet; after `smallReadsBeforeWhole` reads of
   * a few sources each, the whole log instead, once (this session writes every later entry itself).
   */
  async load(sources: readonly string[]): Promise<void> {
    if (!this.readLines || this.whole) return;
    const missing = [...new Set(sources)].filter((source) => !this.stored.has(source) && !this.written.has(source) && !this.spill?.has(source));
    if (missing.length === 0) return;
    if (!this.wholeTooLarge && missing.length <= smallRead && ++this.smallReads > smallReadsBeforeWhole) {
      const all = await this.readLines(null);
      if (all) {
        for (const line of all) {
          // A source read before keeps what it had: none, or none any more (its record moved in this statement).
          const source = line ? sourceOfLine(line) : undefined;
          if (source !== undefined && !this.stored.has(source)) this.stored.set(source, line);
        }
        this.whole = true;
        return;
      }
      this.wholeTooLarge = true;
    }
    for (let start = 0; start < missing.length; start += sourcesPerRead) {
      const slice = missing.slice(start, start + sourcesPerRead);
      const lines = (await this.readLines(slice))!;
      for (const source of slice) this.stored.set(source, null);
      for (const line of lines) {
        if (line) this.stored.set(sourceOfLine(line), line);
      }
    }
  }

  /**
   * Before a run over `files` (paths, not texts known by their content): when the log does not
   * know some of them, and the statement has not looked yet, the stored entries of the schema's
   * other documents whose files are gone from their paths (`isThere` says), by content — the
   * records a moved or renamed file can take over (`claimMoved`). One read of their names and
   * hashes, a `stat` each, and one read of the gone ones' entries, once per statement: the scalar
   * form runs once per chunk DuckDB hands it, often a row.
   */
  async lookForGone(files: readonly string[], isThere: (path: string) => boolean): Promise<void> {
    if (!this.readOutside || this.goneByContent || files.every((source) => this.knows(source))) return;
    const gone: string[] = [];
    for (const line of await this.readOutside(files)) {
      if (!line) continue;
      const { source } = JSON.parse(line) as { source: string };
      if (!this.written.has(source) && !this.spill?.has(source) && !isThere(source)) gone.push(source);
    }
    await this.load(gone);
    const byContent = new Map<string, IngestionLogEntry[]>();
    for (const entry of gone.flatMap((source) => this.get(source) ?? [])) {
      byContent.set(entry.contentHash, [...byContent.get(entry.contentHash) ?? [], entry]);
    }
    this.goneByContent = byContent;
  }

  /** A gone document with this content (`from`), whose entry becomes `to`'s, and `from` has none; undefined when there is none. */
  claimMoved(to: string, contentHash: string): { from: string; entry: IngestionLogEntry } | undefined {
    const candidates = this.goneByContent?.get(contentHash);
    const entry = candidates?.shift();
    if (!entry) return undefined;
    if (candidates!.length === 0) this.goneByContent!.delete(contentHash);
    this.set({ ...entry, source: to });
    this.written.delete(entry.source);
    this.spill?.delete(entry.source);
    this.stored.set(entry.source, null);
    this.moved.push({ from: entry.source, to });
    return { from: entry.source, entry: { ...entry, source: to } };
  }

  /** At a statement's end: the records that followed their documents during it; the next statement looks for gone files afresh. */
  endStatement(): Array<{ from: string; to: string }> {
    this.goneByContent = undefined;
    return this.moved.splice(0);
  }

  /**
   * Lets go of what is held for `sources`, which a run has passed (a long scan goes through its
   * documents a slice at a time): their stored lines (read again when asked for; the database
   * still has them) and this session's entries, which go to a file of the worker's own and are read
   * back from it if asked for again — the database may not have them until the journal is applied.
   * Each entry written held ~1.2 KB (its values and attribute hashes), 1.2 GB over a million pages.
   */
  forget(sources: readonly string[]): void {
    for (const source of sources) {
      const written = this.written.get(source);
      if (written !== undefined) {
        (this.spill ??= new WrittenEntrySpill()).put(source, written);
        this.written.delete(source);
      }
      this.stored.delete(source);
    }
    // Some stored entries are no longer at hand: a source missing from `stored` is read again, not taken as having none.
    this.whole = false;
  }

  /**
   * Whether `source` is known to have no entry: the database had none when it was read, or holds
   * no entry of this schema (`readLines` undefined), and none was written since. A source not read
   * yet is not known to have none.
   */
  knownToHaveNone(source: string): boolean {
    return (!this.readLines || this.stored.get(source) === null) && !this.written.has(source) && !this.spill?.has(source);
  }

  /** Whether `source` has an entry, without reading it. */
  private knows(source: string): boolean {
    return this.written.has(source) || Boolean(this.spill?.has(source)) || Boolean(this.stored.get(source));
  }

  get(source: string): IngestionLogEntry | undefined {
    const written = this.written.get(source) ?? this.spill?.get(source);
    if (written !== undefined) return { source, ...JSON.parse(written) as Omit<IngestionLogEntry, 'source'> };
    const line = this.stored.get(source);
    return line ? entryOfLine(line) : undefined;
  }

  set({ source, ...entry }: IngestionLogEntry): void {
    this.written.set(source, JSON.stringify(entry));
    this.spill?.delete(source);
  }

  /** The entries read or written so far, as the run's store port hands them over (each read when asked for). */
  view(): ReadonlyMap<string, IngestionLogEntry> {
    return new LogView(this);
  }

  /** Every source with an entry, written ones first. */
  *sources(): IterableIterator<string> {
    yield* this.written.keys();
    if (this.spill) for (const source of this.spill.keys()) if (!this.written.has(source)) yield source;
    for (const [source, line] of this.stored) if (line && !this.written.has(source) && !this.spill?.has(source)) yield source;
  }
}

/** The value of a line's leading `"source"` member, without parsing the rest of the line. */
function sourceOfLine(line: string): string {
  const start = line.indexOf(':') + 1;
  let end = start + 1;
  while (line[end] !== '"') end += line[end] === '\\' ? 2 : 1;
  return JSON.parse(line.slice(start, end + 1)) as string;
}

/** Columns of a record table that are not the schema's attributes. */
const internalColumns = new Set(['_source', '_content_hash']);

/**
 * A stored line as a log entry. A `done` entry whose row is missing (a version of srag that kept
 * none) is no entry: its document is extracted again.
 */
function entryOfLine(line: string): IngestionLogEntry | undefined {
  const stored = JSON.parse(line) as { source: string; content_hash: string; status: IngestionLogEntry['status']; error: string | null; record: Record<string, NormalizedValue> | null };
  if (stored.status !== 'done') return { source: stored.source, contentHash: stored.content_hash, status: stored.status, error: stored.error };
  if (!stored.record) return undefined;
  // Own properties whatever the names (`__proto__` is a property name like any other).
  const values = Object.fromEntries(Object.entries(stored.record).filter(([name]) => !internalColumns.has(name)));
  return { source: stored.source, contentHash: stored.content_hash, status: 'done', error: stored.error, values };
}

class LogView implements ReadonlyMap<string, IngestionLogEntry> {
  constructor(private readonly copy: IngestionLogCopy) {}

  get size(): number {
    let size = 0;
    for (const _ of this.entries()) size += 1;
    return size;
  }

  get(source: string): IngestionLogEntry | undefined {
    return this.copy.get(source);
  }

  has(source: string): boolean {
    return this.copy.get(source) !== undefined;
  }

  *entries(): MapIterator<[string, IngestionLogEntry]> {
    for (const source of this.copy.sources()) {
      const entry = this.copy.get(source);
      if (entry) yield [source, entry];
    }
  }

  *keys(): MapIterator<string> {
    for (const [source] of this.entries()) yield source;
  }

  *values(): MapIterator<IngestionLogEntry> {
    for (const [, entry] of this.entries()) yield entry;
  }

  forEach(callback: (value: IngestionLogEntry, key: string, map: ReadonlyMap<string, IngestionLogEntry>) => void): void {
    for (const [source, entry] of this.entries()) callback(entry, source, this);
  }

  [Symbol.iterator](): MapIterator<[string, IngestionLogEntry]> {
    return this.entries();
  }
}
