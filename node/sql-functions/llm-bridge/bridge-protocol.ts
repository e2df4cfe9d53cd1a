import type { MessagePort } from 'node:worker_threads';
import type { ColumnCoverage, ErrorFix, ModelUsage, NormalizedValue, RecordSchema, SragErrorCode } from '../../../core/index.ts';
import type { JournalEntry } from '../../duckdb/store/journal-entry.ts';
import type { BridgeStart } from '../../duckdb/store/srag-store.ts';
import type { TableSnapshot } from '../../../app/index.ts';

/** How a failed document is reported by `srag_extract` (`on_error := ...`). */
export type OnError = 'capture' | 'null' | 'fail';

export interface ExtractionSettings {
  /** The model for extraction; the bridge falls back to SRAG_EXTRACT_MODEL. */
  model?: string;
  /** Requests in flight at once for this scan (SRAG_CONCURRENCY unless given). */
  concurrency?: number;
  /** The most documents per model call; 1 sends each document alone, `'auto'` lets short documents share a call. */
  batchSize: number | 'auto';
  onError: OnError;
  /** Try documents again that failed in an earlier run with the same content. */
  retryFailed: boolean;
}

/** A document of a scan: its identity, how the `filename` column shows it, and why it is not read (a link out of the given paths). */
export interface ScanDocument {
  source: string;
  label: string;
  refusal?: string;
}

/**
 * Which documents a scan goes through: those the bridge listed for `list-scan` (`listId`; listed
 * again from `patterns` when the bridge no longer keeps that list), or `documents` given whole.
 */
export type ScanListing =
  | { listId: number; patterns: string[]; named: string; followLinks: boolean }
  | { documents: ScanDocument[] };

/** One output row of `srag_extract`, before it is written into a DuckDB chunk. */
export interface ExtractedRow {
  filename: string;
  contentHash: string | null;
  /** null when the document failed: every attribute column is then NULL. */
  values: Record<string, NormalizedValue> | null;
  error: string | null;
}

/** `srag_ask(question[, table][, extend := true])`: the question, and the database as the macro read it (never rows). */
export interface AskRequest {
  question: string;
  /** The table the call names; null for `srag_ask(question)`, which chooses among every table. */
  table: string | null;
  snapshot: TableSnapshot;
  /** `extend := true`: first add the attributes the question needs that the table lacks (app's `tableGrower`). */
  extend: boolean;
}

export interface AskReply {
  answer: string;
  sql: string;
  /** The tables the answer was computed from. */
  tables: string[];
  /** The result rows as a JSON array of objects, one key per column in the query's order (see `resultRowsJson`). */
  resultJson: string;
  /** Those keys in the query's order: its columns, a repeated name made unique (`uniqueColumnNames`). */
  columns: string[];
  /** What was left out of the result to keep it bounded, in words; null when nothing was. */
  resultCut: string | null;
  /** Coverage of the columns the SQL read; null when no evidence is kept for the table. */
  coverage: ColumnCoverage[] | null;
  promptTokens: number;
  completionTokens: number;
  /** With `extend`: what was added and what the back-fill cost (app's `extensionJson`); null otherwise. */
  schemaExtension: Record<string, unknown> | null;
}

/**
 * What the worker asks of the thread that waits in a DuckDB callback, while it answers that
 * callback: only that thread may run statements on its database (a second instance on the same
 * file is unsafe), so `srag_ask` has it export the columns a query needs to a Parquet file, and
 * `srag_extract` the ingestion log of the documents it scans.
 */
export type CallerRequest =
  | { type: 'export-table'; table: string; columns: string[]; file: string }
  /** The evidence behind coverage; `table` is the record table's name in `srag_evidence`, `copy` a copy whose rows it is keyed to. */
  | { type: 'export-evidence'; table: string; attributes: string[]; file: string; copy?: string }
  /** The stored ingestion log of a `srag_extract` schema, for the documents a run names, as JSON lines (see `IngestionLogCopy`). */
  | { type: 'export-log'; schemaKey: string; sources: string[] | null; file: string }
  /**
   * The schema's other documents, those not among `sources`, that have a record: one JSON line each
   * with `source` and `content_hash` (see `IngestionLogCopy.goneOutside`).
   */
  | { type: 'export-log-outside'; schemaKey: string; sources: string[]; file: string };

/** The waiting thread's answer to a caller request (posted to the worker): done, or why not. */
export interface CallerReply {
  type: 'caller-reply';
  id: number;
  error?: SerializedError;
}

export type BridgeRequest =
  | { type: 'load'; start: BridgeStart }
  /** Lists the files `patterns` name (see `listScanDocuments`) and keeps them for a `start-scan`; `named` is what was given. */
  | { type: 'list-scan'; patterns: string[]; named: string; followLinks: boolean }
  | { type: 'start-scan'; schema: RecordSchema; schemaKey: string; listing: ScanListing; settings: ExtractionSettings }
  | { type: 'next-rows'; scanId: number; maximum: number }
  | { type: 'extract-texts'; schema: RecordSchema; schemaKey: string; documents: Array<ScanDocument & { content: string }>; settings: ExtractionSettings }
  | { type: 'ask'; request: AskRequest }
  | { type: 'usage' }
  | { type: 'drain' };

export type BridgeReplyValue = {
  'load': null;
  'list-scan': { listId: number; count: number };
  'start-scan': { scanId: number };
  'next-rows': { rows: ExtractedRow[]; done: boolean };
  'extract-texts': { rows: ExtractedRow[] };
  'ask': AskReply;
  'usage': ModelUsage[];
  'drain': null;
};

export interface SerializedError {
  code: SragErrorCode | 'INTERNAL';
  message: string;
  hint?: string;
  fix?: ErrorFix;
}

export type BridgeReply =
  | { type: 'reply'; id: number; ok: true; value: unknown }
  | { type: 'reply'; id: number; ok: false; error: SerializedError };

/**
 * What the bridge posts to the thread that owns DuckDB: replies to its calls; writes for the
 * store's journal, which that thread appends at once — also while it is blocked in a callback —
 * and acknowledges with a `JournalAck`; and, during a blocked call, work only that thread can do
 * (`CallerRequest`), answered with a `CallerReply`.
 */
export type BridgeMessage =
  | BridgeReply
  | { type: 'journal'; id: number; entries: JournalEntry[] }
  | { type: 'caller-request'; id: number; request: CallerRequest };

/** The DuckDB thread's answer to a `journal` message: the entries are durable, or why not. */
export interface JournalAck {
  type: 'journal-ack';
  id: number;
  error?: SerializedError;
}

export interface BridgeWorkerData {
  module: string;
  control: SharedArrayBuffer;
  syncPort: MessagePort;
  environment: Record<string, string | undefined>;
  /** Draw a progress bar on stderr when it is a terminal. */
  progress: boolean;
  /** See `LlmBridgeService`; its default when undefined. */
  documentsPerScanRun: number | undefined;
}
