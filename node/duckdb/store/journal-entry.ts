import type { CachedResponse, StoredRecord } from '../../../core/index.ts';
import type { LogWrite } from './store-writes.ts';

/**
 * One write the SQL functions hand to the store while DuckDB is busy with a statement (see
 * `StoreJournal`): a schema `srag_extract` was called with, a record, a log entry, a model reply,
 * a record following its document to a new path.
 * `logName` is the `srag_extract:<title>:<hash>` key the record table and log rows belong to, or
 * the name of a table `srag ingest` made that `srag_ask(…, extend := true)` grows (`grow-table`:
 * its grown schema, whose new attributes become NULL columns before the back-filled records land).
 */
export type JournalEntry =
  | { kind: 'schema'; schemaKey: string; title: string; schemaJson: string }
  | { kind: 'grow-table'; table: string; schemaJson: string }
  /**
   * `fresh`: the document had no entry in the log when it was saved (nor one saved before in the
   * session), so it has no row, evidence or items to replace: its record is only inserted.
   */
  | { kind: 'record'; logName: string; record: StoredRecord; fresh?: true }
  | { kind: 'log'; logName: string; entry: LogWrite }
  /** A document moved or renamed since it was extracted: its record, evidence and log entry go to its new path. */
  | { kind: 'move'; logName: string; from: string; to: string }
  | { kind: 'cache'; key: string; response: CachedResponse; purpose: string | null };
