import type { MessagePort } from 'node:worker_threads';
import type { CachedResponse, ModelUsage, NormalizedValue, RecordSchema, SragErrorCode } from '../../../core/index.ts';

/** How a failed document is reported by `srag_extract` (`on_error := ...`). */
export type OnError = 'capture' | 'null' | 'fail';

export interface ExtractionSettings {
  /** The model for extraction; the bridge falls back to SRAG_EXTRACT_MODEL. */
  model?: string;
  /** Requests in flight at once for this scan (SRAG_CONCURRENCY unless given). */
  concurrency?: number;
  /** Documents per model call; 1 sends each document alone. */
  batchSize: number;
  onError: OnError;
  /** Try documents again that failed in an earlier run with the same content. */
  retryFailed: boolean;
}

/** One output row of `srag_extract`, before it is written into a DuckDB chunk. */
export interface ExtractedRow {
  filename: string;
  contentHash: string | null;
  /** null when the document failed: every attribute column is then NULL. */
  values: Record<string, NormalizedValue> | null;
  error: string | null;
}

export interface LogWrite {
  tableName: string;
  source: string;
  contentHash: string;
  status: 'done' | 'failed';
  error: string | null;
}

export interface SchemaWrite {
  schemaKey: string;
  title: string;
  schemaJson: string;
}

/** What the bridge learnt that the store must keep: drained with every reply, written behind. */
export interface PendingWrites {
  cache: Array<[key: string, response: CachedResponse]>;
  log: LogWrite[];
  schemas: SchemaWrite[];
}

/** A registered table's schema as `srag_tables` or `srag_extract_schemas` holds it. */
export interface KnownSchema {
  /** The table name (srag_tables) or the schema key (srag_extract_schemas). */
  name: string;
  schemaJson: string;
  statisticsJson: string | null;
  origin: 'srag_tables' | 'srag_extract';
}

export interface AskRequest {
  question: string;
  /** The table the call names; null for `srag_ask(question)`, which takes the database's one record table. */
  table: string | null;
  /** The tables of the database (main schema, srag's own left out) with their columns: names and types only, never rows. */
  tables: Array<{ name: string; columns: Array<{ name: string; type: string }> }>;
  knownSchemas: KnownSchema[];
}

export interface AskReply {
  answer: string;
  sql: string;
  /** The result rows as a JSON array of objects, one key per column. */
  resultJson: string;
  /** What was left out of the result to keep it bounded, in words; null when nothing was. */
  resultCut: string | null;
  promptTokens: number;
  completionTokens: number;
}

/**
 * What the worker asks of the thread that waits in a DuckDB callback, while it answers that
 * callback: only that thread may run statements on its database (a second instance on the same
 * file is unsafe), so `srag_ask` has it export the columns a query needs to a Parquet file.
 */
export type CallerRequest = { type: 'export-table'; table: string; columns: string[]; file: string };

/** A caller request on the synchronous port, sent by the worker between a call and its reply. */
export interface CallerRequestMessage {
  callerRequestId: number;
  request: CallerRequest;
}

/** The waiting thread's answer to a caller request, posted back on the same port. */
export type CallerReplyMessage =
  | { callerRequestId: number; ok: true }
  | { callerRequestId: number; ok: false; error: SerializedError };

export type BridgeRequest =
  | { type: 'load'; cache: Array<[string, CachedResponse]>; log: LogWrite[]; schemas: SchemaWrite[] }
  | { type: 'start-scan'; schema: RecordSchema; schemaKey: string; documents: string[]; settings: ExtractionSettings }
  | { type: 'next-rows'; scanId: number; maximum: number }
  | { type: 'extract-texts'; schema: RecordSchema; documents: Array<{ name: string; content: string }>; settings: ExtractionSettings }
  | { type: 'ask'; request: AskRequest }
  | { type: 'usage' }
  | { type: 'drain' };

export type BridgeReplyValue = {
  'load': null;
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
}

export type BridgeReply =
  | { id: number; ok: true; value: unknown; writes: PendingWrites }
  | { id: number; ok: false; error: SerializedError; writes: PendingWrites };

export interface BridgeWorkerData {
  module: string;
  control: SharedArrayBuffer;
  syncPort: MessagePort;
  environment: Record<string, string | undefined>;
  /** Draw a progress bar on stderr when it is a terminal. */
  progress: boolean;
}
