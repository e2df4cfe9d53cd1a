import type { ExtractionStore, IngestionLogEntry, ResponseCache, StoredRecord } from '../../../core/index.ts';
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

  async saveRecord(record: StoredRecord): Promise<void> {
    await this.journal.write([{ kind: 'record', logName: this.logName, record }]);
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
