import type { ChildRecords } from '../extraction/child-record.ts';
import type { AttributeEvidence, RecordIssue } from '../extraction/record-issue.ts';
import type { ResponseCache } from '../language-model/response-cache.ts';
import type { NormalizedValue } from '../normalization/index.ts';

/** What the ingestion log says about a document: its record was saved, it failed, or it was empty. */
export type LogStatus = 'done' | 'failed' | 'empty';

/** The latest ingestion-log entry of one document of one table. */
export interface IngestionLogEntry {
  source: string;
  /** SHA-256 of the content the entry is about; '' when the document could not be read. */
  contentHash: string;
  status: LogStatus;
  error: string | null;
  /**
   * The record's values, for a `done` entry, when the store keeps them at hand: the SQL functions
   * return an unchanged document's row from them without a model call or a reply to re-read.
   */
  values?: Record<string, NormalizedValue>;
  /**
   * For a `done` entry: the definitions (`attributeDefinitionHash`) of the attributes its record
   * holds values for. The run extracts only the schema's attributes missing from it (column-level
   * incremental extraction). Absent where the store keeps whole records (the SQL functions, whose
   * record tables are keyed by the whole schema, and the Sheets add-on): the entry then covers
   * every attribute of the run's schema.
   */
  attributeHashes?: readonly string[];
}

/** One document's record as the store keeps it: the row, its evidence and its issues. */
export interface StoredRecord {
  source: string;
  contentHash: string;
  values: Record<string, NormalizedValue>;
  evidence: AttributeEvidence[];
  issues: RecordIssue[];
  /** The attribute definitions the record holds values for once saved (see `IngestionLogEntry.attributeHashes`). */
  attributeHashes?: string[];
  /**
   * Set when only these attributes were extracted (or reported) for a record the store already
   * holds: `values`, `evidence` and `issues` cover just them, and the record's other values stay.
   */
  onlyAttributes?: string[];
  /**
   * The items of each child entity the schema declares, in order: they replace every item the
   * document had before, in the same atomic save as the row (no duplicates, no orphans).
   */
  children?: ChildRecords;
}

/**
 * The one port an extraction run keeps everything through, for one table and schema: the
 * ingestion log (what is done, failed or empty, by content hash), the records with their evidence,
 * the response cache the model client reads and writes, and the table's statistics.
 *
 * Each save is atomic — row, evidence and log entry together — and resolves only once it is
 * durable: that is what lets an interrupted run resume without duplicates or loss. A save that
 * fails rejects (with a `STORE_FAILED` SragError where the store can say what to do); the run then
 * stops at once and leaves every unsaved document unmarked, since a store failure is not the
 * document's fault.
 *
 * Implemented by the DuckDB store (a transaction per group of saves), by the SQL functions' bridge
 * (a journal written synchronously while DuckDB waits), and by the Sheets add-on (the Records sheet).
 */
export interface ExtractionStore {
  /**
   * The latest log entry per document source. Read once when a run starts, for the run's
   * `sources`: a store may return more (every entry it keeps at hand), but need not — so a run over
   * 50 documents into a table of a million rows reads 50 entries, not a million.
   */
  logEntries(sources?: readonly string[]): Promise<ReadonlyMap<string, IngestionLogEntry>>;
  /**
   * Optional: for a document the log does not know, the entry of one the store holds with this
   * very content whose file is gone from its path — the document was moved or renamed. The store
   * moves that record (row, child items, evidence, log entry) to `source` before any save it is
   * then given for `source`, and durably before the surface reports the run done (a store that
   * only plans, for a dry run, moves nothing); the run treats the document as it would that
   * entry: unchanged, no call, no second row. Undefined when there is none.
   */
  followMoved?(source: string, contentHash: string): Promise<IngestionLogEntry | undefined>;
  saveRecord(record: StoredRecord): Promise<void>;
  /** A document that was not extracted: it failed, or it was empty (no model call). */
  saveLogEntry(entry: { source: string; contentHash: string; status: 'failed' | 'empty'; error: string | null }): Promise<void>;
  /** Where the model client keeps validated replies (the surface hands it to its `ModelClient`). */
  readonly responseCache: ResponseCache;
  /** Recompute the table's statistics after a run changed it (a no-op where nothing reads them). */
  refreshStatistics(): Promise<void>;
}
