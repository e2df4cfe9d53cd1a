import type { DuckDBConnection, DuckDBValue } from '@duckdb/node-api';
import type { LogWrite, PendingWrites } from '../llm-bridge/bridge-protocol.ts';

/** Rows per INSERT: enough to amortize the statement, few enough to keep parameter lists short. */
const rowsPerStatement = 200;
/** Entries kept before a write during a statement: what a crash mid-scan may cost again. */
const entriesPerWrite = 500;

/**
 * Writes what the bridge hands back (cache entries, log entries, schemas) on a connection of its
 * own. Entries are gathered and written together — at `idle()` (after each statement) or when
 * `entriesPerWrite` have gathered: every commit syncs DuckDB's write-ahead log, and one commit per
 * reply kept Node's thread pool busy enough to delay the bridge's file reads (half the scan's
 * throughput was lost that way). `idle()` resolves when all is written and rethrows a failure.
 */
export class StoreWriter {
  private queue: Promise<void> = Promise.resolve();
  private failure: unknown;
  private gathered: PendingWrites = { cache: [], log: [], schemas: [] };

  constructor(private readonly connection: DuckDBConnection) {}

  enqueue(writes: PendingWrites): void {
    // Loops, not spreads: a reply can carry more entries than a call has room for arguments.
    for (const entry of writes.cache) this.gathered.cache.push(entry);
    for (const entry of writes.log) this.gathered.log.push(entry);
    for (const entry of writes.schemas) this.gathered.schemas.push(entry);
    // A new schema is rare and `srag_ask` in a later statement may look for it: written at once.
    if (writes.schemas.length > 0 || this.gathered.cache.length + this.gathered.log.length >= entriesPerWrite) this.writeGathered();
  }

  async idle(): Promise<void> {
    this.writeGathered();
    await this.queue;
    if (this.failure !== undefined) {
      const failure = this.failure;
      this.failure = undefined;
      throw failure;
    }
  }

  private writeGathered(): void {
    const writes = this.gathered;
    if (writes.cache.length === 0 && writes.log.length === 0 && writes.schemas.length === 0) return;
    this.gathered = { cache: [], log: [], schemas: [] };
    this.queue = this.queue.then(() => this.write(writes)).catch((error: unknown) => { this.failure ??= error; });
  }

  private async write({ cache, log, schemas }: PendingWrites): Promise<void> {
    for (let start = 0; start < cache.length; start += rowsPerStatement) {
      const slice = cache.slice(start, start + rowsPerStatement);
      const values: DuckDBValue[] = slice.flatMap(([key, response]) => [key, response.model, response.text, response.usage.promptTokens, response.usage.completionTokens]);
      await this.connection.run(
        `INSERT OR IGNORE INTO srag_cache (key, model, response, prompt_tokens, completion_tokens) VALUES ${placeholders(slice.length, 5)}`,
        values,
      );
    }
    // The last entry per document wins; one statement may not update the same row twice.
    const latest = [...new Map(log.map((entry): [string, LogWrite] => [`${entry.tableName}\u0000${entry.source}`, entry])).values()];
    for (let start = 0; start < latest.length; start += rowsPerStatement) {
      const slice = latest.slice(start, start + rowsPerStatement);
      await this.connection.run(
        `INSERT INTO srag_ingestion_log (table_name, source, content_hash, status, error, attempts, updated_at)
         SELECT *, 1, current_timestamp FROM (VALUES ${placeholders(slice.length, 5)})
         ON CONFLICT (table_name, source) DO UPDATE SET content_hash = excluded.content_hash, status = excluded.status,
           error = excluded.error, attempts = srag_ingestion_log.attempts + 1, updated_at = excluded.updated_at`,
        slice.flatMap((entry) => [entry.tableName, entry.source, entry.contentHash, entry.status, entry.error]),
      );
    }
    for (const schema of schemas) {
      await this.connection.run('INSERT OR IGNORE INTO srag_extract_schemas (schema_key, title, schema_json) VALUES ($1, $2, $3)', [schema.schemaKey, schema.title, schema.schemaJson]);
    }
  }
}

function placeholders(rows: number, columns: number): string {
  return Array.from({ length: rows }, (_, row) => `(${Array.from({ length: columns }, (_, column) => `$${row * columns + column + 1}`).join(', ')})`).join(', ');
}
