import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import {
  parseRecordSchema, recordSchemaToJsonSchema, sqlTypeForKind, SragError,
  type CachedResponse, type ColumnStatistics, type IngestionLogEntry, type RecordSchema, type RecordStore, type ResponseCache, type StoredRecord,
} from '../../../core/index.ts';
import { quoteIdentifier } from '../duckdb-sql-engine.ts';
import { sragCommandLine } from '../quote-shell-argument.ts';
import { queryColumnStatistics } from './query-column-statistics.ts';
import { storeTablesSql } from './store-tables.ts';

export interface TableInfo {
  table: string;
  schema: RecordSchema;
  statistics: ColumnStatistics[];
}

/**
 * One DuckDB file holding record tables, their schemas and statistics, the ingestion log, the
 * evidence per value and the response cache. All statements go through one connection in order
 * (`exclusive`), so a per-document transaction never interleaves with another write.
 */
export class SragStore {
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(readonly path: string, private readonly instance: DuckDBInstance, readonly connection: DuckDBConnection) {}

  static async open(path: string): Promise<SragStore> {
    let instance: DuckDBInstance;
    try {
      instance = await DuckDBInstance.create(path);
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      throw new SragError({
        code: 'INPUT_INVALID',
        message: `cannot open the database ${path}: ${message}`,
        hint: /lock/i.test(message ?? '') ? 'another srag process has it open; wait for it or use another --db' : 'check the --db path',
        cause: error,
      });
    }
    const connection = await instance.connect();
    await connection.run(storeTablesSql);
    return new SragStore(path, instance, connection);
  }

  /** Run `work` after every earlier store operation, alone on the connection. */
  exclusive<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
    const next = this.queue.then(() => work(this.connection));
    this.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }

  /** Create the record table for `schema`, or check that an existing one was made for the same schema. */
  async registerTable(table: string, schema: RecordSchema): Promise<void> {
    const schemaJson = JSON.stringify(recordSchemaToJsonSchema(schema));
    await this.exclusive(async (connection) => {
      const existing = (await connection.runAndReadAll('SELECT schema_json FROM srag_tables WHERE table_name = $1', [table])).getRowsJS()[0];
      if (existing) {
        if (existing[0] !== schemaJson) {
          throw new SragError({
            code: 'INPUT_INVALID',
            message: `table "${table}" in ${this.path} was ingested with a different schema`,
            hint: `ingest into a new table with --table NAME, or drop it first: ${sragCommandLine(['drop', table], this.path)}`,
          });
        }
        return;
      }
      const clash = (await connection.runAndReadAll("SELECT 1 FROM duckdb_tables() WHERE table_name = $1 AND schema_name = 'main'", [table])).getRowsJS()[0];
      if (clash) {
        throw new SragError({ code: 'INPUT_INVALID', message: `table "${table}" already exists in ${this.path} and was not made by srag`, hint: 'choose another name with --table' });
      }
      const columns = schema.attributes.map((attribute) => `${quoteIdentifier(attribute.name)} ${sqlTypeForKind[attribute.kind]}`);
      await connection.run('BEGIN TRANSACTION');
      try {
        await connection.run(`CREATE TABLE ${quoteIdentifier(table)} (${columns.join(', ')}, "_source" VARCHAR PRIMARY KEY, "_content_hash" VARCHAR NOT NULL)`);
        await connection.run('INSERT INTO srag_tables (table_name, title, schema_json) VALUES ($1, $2, $3)', [table, schema.title, schemaJson]);
        await connection.run('COMMIT');
      } catch (error) {
        await connection.run('ROLLBACK');
        throw error;
      }
    });
  }

  tables(): Promise<string[]> {
    return this.exclusive(async (connection) =>
      (await connection.runAndReadAll('SELECT table_name FROM srag_tables ORDER BY table_name')).getRowsJS().map((row) => String(row[0])));
  }

  /** The named table, or the only one when no name is given; errors list what exists. */
  async tableInfo(table?: string): Promise<TableInfo> {
    const names = await this.tables();
    const chosen = table ?? (names.length === 1 ? names[0] : undefined);
    if (!chosen || !names.includes(chosen)) {
      throw new SragError({
        code: 'TABLE_NOT_FOUND',
        message: names.length === 0
          ? `no srag table in ${this.path}`
          : table ? `no srag table "${table}" in ${this.path}` : `${this.path} holds several tables (${names.join(', ')})`,
        hint: names.length === 0 ? 'run `srag ingest <glob> --schema FILE` first (or pass the right --db)' : `pass --table with one of: ${names.join(', ')}`,
      });
    }
    const row = await this.exclusive(async (connection) =>
      (await connection.runAndReadAll('SELECT schema_json, statistics_json FROM srag_tables WHERE table_name = $1', [chosen])).getRowsJS()[0]!);
    return {
      table: chosen,
      schema: parseRecordSchema(JSON.parse(String(row[0])), `table "${chosen}"`),
      statistics: row[1] ? (JSON.parse(String(row[1])) as ColumnStatistics[]) : [],
    };
  }

  /**
   * Recompute Appendix-D statistics of the table and store them with it. DuckDB aggregates the
   * rows itself (`queryColumnStatistics`): the rows never cross into JavaScript, so this holds at
   * millions of rows.
   */
  async refreshStatistics(table: string, schema: RecordSchema): Promise<ColumnStatistics[]> {
    return this.exclusive(async (connection) => {
      const statistics = await queryColumnStatistics(connection, table, schema);
      await connection.run('UPDATE srag_tables SET statistics_json = $1, updated_at = current_timestamp WHERE table_name = $2', [JSON.stringify(statistics), table]);
      return statistics;
    });
  }

  /** The `RecordStore` port for one table: row, evidence and log entry saved in one transaction. */
  recordStore(table: string, schema: RecordSchema): RecordStore {
    const quotedTable = quoteIdentifier(table);
    const columnList = [...schema.attributes.map((attribute) => quoteIdentifier(attribute.name)), '"_source"', '"_content_hash"'].join(', ');
    const typedPlaceholders = (offset: number) => [
      ...schema.attributes.map((attribute, index) => `$${offset + index + 1}::${sqlTypeForKind[attribute.kind]}`),
      `$${offset + schema.attributes.length + 1}`, `$${offset + schema.attributes.length + 2}`,
    ].join(', ');
    const transaction = async (connection: DuckDBConnection, statements: () => Promise<void>) => {
      await connection.run('BEGIN TRANSACTION');
      try {
        await statements();
        await connection.run('COMMIT');
      } catch (error) {
        await connection.run('ROLLBACK');
        throw error;
      }
    };
    const upsertLog = (connection: DuckDBConnection, source: string, contentHash: string, status: string, error: string | null) =>
      connection.run(
        `INSERT INTO srag_ingestion_log (table_name, source, content_hash, status, error, attempts, updated_at)
         VALUES ($1, $2, $3, $4, $5, 1, current_timestamp)
         ON CONFLICT (table_name, source) DO UPDATE SET content_hash = excluded.content_hash, status = excluded.status,
           error = excluded.error, attempts = srag_ingestion_log.attempts + 1, updated_at = excluded.updated_at`,
        [table, source, contentHash, status, error],
      );
    const pending: Array<{ record: StoredRecord; resolve: () => void; reject: (error: unknown) => void }> = [];
    const placeholderRows = (rowCount: number, width: number, offset = 0) =>
      Array.from({ length: rowCount }, (_, row) => `(${Array.from({ length: width }, (__, column) => `$${offset + row * width + column + 1}`).join(', ')})`).join(', ');
    const flushPending = async (connection: DuckDBConnection) => {
      const batch = pending.splice(0, pending.length);
      const records = [...new Map(batch.map(({ record }) => [record.source, record])).values()];
      const sources = records.map((record) => record.source);
      const inList = sources.map((_, index) => `$${index + 2}`).join(', ');
      try {
        await transaction(connection, async () => {
          await connection.run(`DELETE FROM ${quotedTable} WHERE "_source" IN (${sources.map((_, index) => `$${index + 1}`).join(', ')})`, sources);
          await connection.run(
            `INSERT INTO ${quotedTable} (${columnList}) VALUES ${records.map((_, row) => `(${typedPlaceholders(row * (schema.attributes.length + 2))})`).join(', ')}`,
            records.flatMap((record): DuckDBValue[] => [...schema.attributes.map((attribute) => record.values[attribute.name] ?? null), record.source, record.contentHash]),
          );
          await connection.run(`DELETE FROM srag_evidence WHERE table_name = $1 AND source IN (${inList})`, [table, ...sources]);
          const evidence = records.flatMap((record) => record.evidence.map((entry) => [table, record.source, entry.attribute,
            entry.value === null ? null : String(entry.value),
            entry.raw === null || entry.raw === undefined ? null : typeof entry.raw === 'string' ? entry.raw : JSON.stringify(entry.raw),
            entry.quote, entry.status, entry.reason]));
          if (evidence.length) {
            await connection.run(`INSERT INTO srag_evidence (table_name, source, attribute, value, raw, quote, status, reason) VALUES ${placeholderRows(evidence.length, 8)}`, evidence.flat());
          }
          await connection.run(
            `INSERT INTO srag_ingestion_log (table_name, source, content_hash, status, error, attempts, updated_at)
             VALUES ${records.map((_, row) => `($${row * 3 + 1}, $${row * 3 + 2}, $${row * 3 + 3}, 'done', NULL, 1, current_timestamp)`).join(', ')}
             ON CONFLICT (table_name, source) DO UPDATE SET content_hash = excluded.content_hash, status = excluded.status,
               error = excluded.error, attempts = srag_ingestion_log.attempts + 1, updated_at = excluded.updated_at`,
            records.flatMap((record) => [table, record.source, record.contentHash]),
          );
        });
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    };
    return {
      logEntries: () => this.exclusive(async (connection) => {
        const rows = (await connection.runAndReadAll(
          'SELECT source, content_hash, status, attempts, error FROM srag_ingestion_log WHERE table_name = $1', [table])).getRowsJS();
        return new Map<string, IngestionLogEntry>(rows.map((row) => [String(row[0]), {
          source: String(row[0]), contentHash: String(row[1]), status: row[2] as 'done' | 'failed', attempts: Number(row[3]), error: row[4] === null ? null : String(row[4]),
        }]));
      }),
      saveRecord: (record: StoredRecord) => new Promise<void>((resolve, reject) => {
        // Group commit: saves that arrive while a write is running share the next transaction.
        // Each caller still hears back only after its record is committed, so "done" stays durable.
        pending.push({ record, resolve, reject });
        if (pending.length === 1) void this.exclusive(flushPending);
      }),
      saveFailure: ({ source, contentHash, error }) => this.exclusive(async (connection) => {
        await upsertLog(connection, source, contentHash, 'failed', error);
      }),
    };
  }

  /** The response cache, shared by every table in this file. */
  responseCache(): ResponseCache {
    return {
      get: (key) => this.exclusive(async (connection) => {
        const row = (await connection.runAndReadAll('SELECT response, model, prompt_tokens, completion_tokens FROM srag_cache WHERE key = $1', [key])).getRowsJS()[0];
        if (!row) return undefined;
        const cached: CachedResponse = { text: String(row[0]), model: String(row[1]), usage: { promptTokens: Number(row[2]), completionTokens: Number(row[3]) } };
        return cached;
      }),
      set: (key, response) => this.exclusive(async (connection) => {
        await connection.run(
          'INSERT OR IGNORE INTO srag_cache (key, model, response, prompt_tokens, completion_tokens) VALUES ($1, $2, $3, $4, $5)',
          [key, response.model, response.text, response.usage.promptTokens, response.usage.completionTokens],
        );
      }),
    };
  }
}
