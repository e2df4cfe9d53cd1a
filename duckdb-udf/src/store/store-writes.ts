import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import { sqlTypeForKind, type CachedResponse, type RecordSchema, type StoredRecord } from '../../../core/index.ts';
import { quoteIdentifier } from '../duckdb-sql-engine.ts';

/** Rows per statement: enough to amortize the statement, few enough to keep parameter lists short. */
const rowsPerStatement = 200;

/** Where one table's records go: the record table itself and the name its log and evidence rows carry. */
export interface RecordTarget {
  /** The record table, quoted (and qualified when it is not in `main`). */
  quotedTable: string;
  /** `table_name` in srag_ingestion_log and srag_evidence. */
  logName: string;
  schema: RecordSchema;
}

export interface LogWrite {
  source: string;
  contentHash: string;
  status: 'done' | 'failed' | 'empty';
  error: string | null;
}

export interface CacheWrite {
  key: string;
  response: CachedResponse;
  /** 'extraction' for extraction replies (the SQL functions keep no copy of those), null otherwise. */
  purpose: string | null;
}

/**
 * The one place the store's rows are written, inside the caller's transaction: the records
 * (replacing any earlier row of the same document), their evidence, and a `done` log entry each.
 */
export async function writeRecords(connection: DuckDBConnection, target: RecordTarget, batch: StoredRecord[]): Promise<void> {
  // The last save of a document wins; one statement may not touch the same row twice.
  const records = [...new Map(batch.map((record) => [record.source, record])).values()];
  const { schema, quotedTable, logName } = target;
  const columnList = [...schema.attributes.map((attribute) => quoteIdentifier(attribute.name)), '"_source"', '"_content_hash"'].join(', ');
  const width = schema.attributes.length + 2;
  const typedRow = (row: number) => `(${[
    ...schema.attributes.map((attribute, index) => `$${row * width + index + 1}::${sqlTypeForKind[attribute.kind]}`),
    `$${row * width + schema.attributes.length + 1}`, `$${row * width + schema.attributes.length + 2}`,
  ].join(', ')})`;
  for (const slice of slices(records)) {
    const sources = slice.map((record) => record.source);
    await connection.run(`DELETE FROM ${quotedTable} WHERE "_source" IN (${sources.map((_, index) => `$${index + 1}`).join(', ')})`, sources);
    await connection.run(
      `INSERT INTO ${quotedTable} (${columnList}) VALUES ${slice.map((_, row) => typedRow(row)).join(', ')}`,
      slice.flatMap((record): DuckDBValue[] => [...schema.attributes.map((attribute) => record.values[attribute.name] ?? null), record.source, record.contentHash]),
    );
    await connection.run(`DELETE FROM srag_evidence WHERE table_name = $1 AND source IN (${sources.map((_, index) => `$${index + 2}`).join(', ')})`, [logName, ...sources]);
    const evidence = slice.flatMap((record) => record.evidence.map((entry): DuckDBValue[] => [logName, record.source, entry.attribute,
      entry.value === null ? null : String(entry.value),
      entry.raw === null || entry.raw === undefined ? null : typeof entry.raw === 'string' ? entry.raw : JSON.stringify(entry.raw),
      entry.quote, entry.status, entry.reason]));
    for (const rows of slices(evidence)) {
      await connection.run(`INSERT INTO srag_evidence (table_name, source, attribute, value, raw, quote, status, reason) VALUES ${placeholders(rows.length, 8)}`, rows.flat());
    }
  }
  await writeLogEntries(connection, logName, records.map((record) => ({ source: record.source, contentHash: record.contentHash, status: 'done', error: null })));
}

/** Upserts ingestion-log entries: the latest entry per document, with the number of attempts. */
export async function writeLogEntries(connection: DuckDBConnection, logName: string, entries: LogWrite[]): Promise<void> {
  const latest = [...new Map(entries.map((entry) => [entry.source, entry])).values()];
  for (const slice of slices(latest)) {
    await connection.run(
      `INSERT INTO srag_ingestion_log (table_name, source, content_hash, status, error, attempts, updated_at)
       SELECT *, 1, current_timestamp FROM (VALUES ${placeholders(slice.length, 5)})
       ON CONFLICT (table_name, source) DO UPDATE SET content_hash = excluded.content_hash, status = excluded.status,
         error = excluded.error, attempts = srag_ingestion_log.attempts + 1, updated_at = excluded.updated_at`,
      slice.flatMap((entry): DuckDBValue[] => [logName, entry.source, entry.contentHash, entry.status, entry.error]),
    );
  }
}

/** Inserts validated model replies; a key already there keeps its reply. */
export async function writeCacheEntries(connection: DuckDBConnection, entries: CacheWrite[]): Promise<void> {
  const unique = [...new Map(entries.map((entry) => [entry.key, entry])).values()];
  for (const slice of slices(unique)) {
    await connection.run(
      `INSERT OR IGNORE INTO srag_cache (key, model, response, prompt_tokens, completion_tokens, purpose) VALUES ${placeholders(slice.length, 6)}`,
      slice.flatMap(({ key, response, purpose }): DuckDBValue[] => [key, response.model, response.text, response.usage.promptTokens, response.usage.completionTokens, purpose]),
    );
  }
}

function slices<T>(items: T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += rowsPerStatement) result.push(items.slice(start, start + rowsPerStatement));
  return result;
}

function placeholders(rows: number, columns: number): string {
  return Array.from({ length: rows }, (_, row) => `(${Array.from({ length: columns }, (_, column) => `$${row * columns + column + 1}`).join(', ')})`).join(', ');
}
