import type { ExtractionStore, IngestionLogEntry, ResponseCache, StoredRecord } from '../../../core/index.ts';
import { fileIsThere } from '../../runtime/file-is-there.ts';
import type { IngestionLogCopy } from './ingestion-log-copy.ts';
import type { JournalChannel } from './journal-channel.ts';

/**
 * The extraction run's store port on the bridge, for one schema `srag_extract` is called with
 * (`logName` is its `srag_extract:<title>:<hash>` key), or for the table `srag ingest` made that
 * `srag_ask(…, extend := true)` back-fills (`logName` is the table's name). The log is the bridge's
 * copy (read from the database for the documents a run names), kept current here; writes go through
 * the journal and count once it acknowledged them.
 */
export class BridgeStore implements ExtractionStore {
  constructor(
    private readonly journal: JournalChannel,
    private readonly logName: string,
    private readonly log: IngestionLogCopy,
    readonly responseCache: ResponseCache,
  ) {}

  async logEntries(sources?: readonly string[]): Promise<ReadonlyMap<string, IngestionLogEntry>> {
    if (sources) await this.log.load(sources);
    return this.log.view();
  }

  /** Before a run over `sources`: see `IngestionLogCopy.lookForGone`. */
  async lookForMoved(sources: readonly string[]): Promise<void> {
    await this.log.lookForGone(sources.filter(isFile), fileIsThere);
  }

  /** Lets go of what is held for `sources`, which a run has passed (see `IngestionLogCopy.forget`). */
  forget(sources: readonly string[]): void {
    this.log.forget(sources);
  }

  /** A gone document with the same content takes `source`'s place: its record, evidence and log entry move there. */
  async followMoved(source: string, contentHash: string): Promise<IngestionLogEntry | undefined> {
    const claimed = isFile(source) ? this.log.claimMoved(source, contentHash) : undefined;
    if (!claimed) return undefined;
    // Not waited for, like a reply: anything saved for the document later is journaled after the
    // move, and a refused write refuses every later one. A move lost to a crash is found and made
    // again by the next scan: the file is still gone and its new path still unknown to the log.
    this.journal.write([{ kind: 'move', logName: this.logName, from: claimed.from, to: source }]).catch(() => undefined);
    return claimed.entry;
  }

  async saveRecord(record: StoredRecord): Promise<void> {
    const fresh = !record.onlyAttributes && this.log.knownToHaveNone(record.source);
    await this.journal.write([{ kind: 'record', logName: this.logName, record, ...(fresh ? { fresh: true as const } : {}) }]);
    // A back-filled record (`onlyAttributes`) keeps its other values; its entry lists what it now holds.
    const values = record.onlyAttributes ? { ...this.log.get(record.source)?.values, ...record.values } : record.values;
    this.log.set({
      source: record.source, contentHash: record.contentHash, status: 'done', error: null, values, ...(record.attributeHashes ? { attributeHashes: record.attributeHashes } : {}),
    });
  }

  async saveLogEntry(entry: { source: string; contentHash: string; status: 'failed' | 'empty'; error: string | null }): Promise<void> {
    await this.journal.write([{ kind: 'log', logName: this.logName, entry }]);
    this.log.set({ ...entry });
  }

  /** Nothing reads statistics of `srag_extract`'s record tables; `srag_ask` computes them from the user's table. */
  async refreshStatistics(): Promise<void> {}
}

/** A text `srag_extract(x)` got without a file name is known by its content (`text:<hash>`): it has no path to move from or to. */
function isFile(source: string): boolean {
  return !source.startsWith('text:');
}
