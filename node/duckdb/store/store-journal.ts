import type { DuckDBAppender, DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { firstLine, SragError } from '../../../core/index.ts';
import type { JournalEntry } from './journal-entry.ts';

/**
 * The store's write-ahead journal for the SQL functions. While a statement runs, the thread that
 * owns DuckDB is blocked in the statement's callback and cannot await a query — but a DuckDB
 * appender writes and commits synchronously. So each write the LLM bridge hands over (a reply, a
 * record, a log entry) is appended here at once, as JSON, and is durable before the bridge hears
 * back: a process killed mid-scan loses nothing it paid for. `SragStore` moves the entries into
 * the ordinary tables through the same writes `srag ingest` uses, and deletes them: slices while
 * the statement runs (`applyJournalSliceEarly`), the rest after it or when the database is next
 * opened (`applyJournal`).
 */
export class StoreJournal {
  private constructor(private readonly connection: DuckDBConnection, private readonly appender: DuckDBAppender, private sequence: number) {}

  static async open(instance: DuckDBInstance): Promise<StoreJournal> {
    const connection = await instance.connect();
    const last = (await connection.runAndReadAll('SELECT coalesce(max(sequence), 0) FROM srag_journal')).getRowsJS()[0]![0];
    const appender = await connection.createAppender('srag_journal');
    return new StoreJournal(connection, appender, Number(last));
  }

  /** Appends and commits `entries` before returning; throws a `STORE_FAILED` error when it cannot. */
  appendSync(entries: readonly JournalEntry[]): void {
    if (entries.length === 0) return;
    try {
      for (const entry of entries) {
        this.sequence += 1;
        this.appender.appendBigInt(BigInt(this.sequence));
        this.appender.appendVarchar(JSON.stringify(entry));
        this.appender.endRow();
      }
      this.appender.flushSync();
    } catch (error) {
      this.appender.clear();
      const message = firstLine((error as Error).message);
      throw new SragError({
        code: 'STORE_FAILED',
        message: `cannot write to the database: ${message}`,
        hint: 'fix the cause (disk space, permissions) and run the statement again: replies saved before are kept, the rest resumes',
        cause: error,
      });
    }
  }

  close(): void {
    try {
      this.appender.closeSync();
    } finally {
      this.connection.closeSync();
    }
  }
}
