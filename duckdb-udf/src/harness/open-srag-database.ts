import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { SragError, type CachedResponse, type ModelUsage } from '../../../core/index.ts';
import type { LogWrite, SchemaWrite } from '../llm-bridge/bridge-protocol.ts';
import { LlmBridge } from '../llm-bridge/llm-bridge.ts';
import { storeTablesSql } from '../store/store-tables.ts';
import { sragAskMacroSql } from '../table-functions/srag-ask.ts';
import { createSynchronousTableExport } from '../table-functions/synchronous-table-export.ts';
import { harnessTablesSql } from './harness-tables.ts';
import { registerSragFunctions } from './register-srag-functions.ts';
import { StoreWriter } from './store-writer.ts';

export interface OpenSragDatabaseOptions {
  /** Settings (OPENAI_*, SRAG_*); default `process.env`. Read by the bridge worker when it starts. */
  environment?: Record<string, string | undefined>;
  /** A progress bar on stderr for long scans, when stderr is a terminal (default true). */
  progress?: boolean;
  /**
   * Lets another thread cancel (see `cancelThroughControlBuffer`). While a scan runs, the thread
   * that runs DuckDB is blocked in a callback and cannot see its own signals; the CLI therefore
   * runs the database on a worker and cancels from its main thread through this buffer.
   */
  control?: SharedArrayBuffer;
}

/** A DuckDB database with the srag functions registered. */
export interface SragDatabase {
  readonly path: string;
  readonly instance: DuckDBInstance;
  /** A connection with every srag function, `srag_ask` included. */
  readonly connection: DuckDBConnection;
  /** Another connection to the same database; `srag_ask` is a macro and is installed on each. */
  connect(): Promise<DuckDBConnection>;
  /** The session's model usage: what `SELECT * FROM srag_usage()` shows. */
  usage(): Promise<ModelUsage[]>;
  /** Writes what the functions learnt (cache, log, schemas) to the database; call after a statement. */
  flush(): Promise<void>;
  /** Cancels the running srag call: requests in flight are aborted, the statement fails with "cancelled". */
  cancel(): void;
  close(): Promise<void>;
}

/**
 * The library entry: open (or create) a DuckDB file — or `:memory:` — with srag's bookkeeping
 * tables, and register `srag_extract` (table and scalar), `srag_record_type`, `srag_ask` and
 * `srag_usage`. Model calls share the response cache and the ingestion log with the CLI.
 *
 * @example
 * const database = await openSragDatabase('srag.duckdb');
 * await database.connection.run(`CREATE TABLE hotels AS SELECT * FROM srag_extract('docs/*', schema := 'schema.json')`);
 * await database.close();
 */
export async function openSragDatabase(path: string, options: OpenSragDatabaseOptions = {}): Promise<SragDatabase> {
  let instance: DuckDBInstance;
  try {
    instance = await DuckDBInstance.create(path);
  } catch (error) {
    const message = (error as Error).message.split('\n')[0] ?? '';
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `cannot open the database ${path}: ${message}`,
      hint: /lock/i.test(message) ? 'another srag process has it open; wait for it or use another --db' : 'check the --db path',
      cause: error,
    });
  }
  const connection = await instance.connect();
  await connection.run(storeTablesSql);
  await connection.run(harnessTablesSql);
  const writerConnection = await instance.connect();
  const writer = new StoreWriter(writerConnection);
  const bridge = new LlmBridge({ environment: options.environment, progress: options.progress, control: options.control, onWrites: (writes) => writer.enqueue(writes) });
  bridge.queue({ type: 'load', ...(await readMirrors(connection)) });
  const tableExport = await createSynchronousTableExport(instance);
  registerSragFunctions(connection, bridge, tableExport);
  await connection.run(sragAskMacroSql);
  const connections = [connection, writerConnection];

  const flush = async () => {
    if (bridge.started) await bridge.callAsync({ type: 'drain' });
    await writer.idle();
  };
  return {
    path,
    instance,
    connection,
    async connect() {
      const another = await instance.connect();
      await another.run(sragAskMacroSql);
      connections.push(another);
      return another;
    },
    usage: async () => (bridge.started ? bridge.callAsync({ type: 'usage' }) : []),
    flush,
    cancel: () => bridge.cancel(),
    async close() {
      try {
        await flush();
      } finally {
        await bridge.close();
        tableExport.close();
        for (const open of connections) open.closeSync();
        instance.closeSync();
      }
    },
  };
}

/** What the bridge keeps copies of: the response cache, srag_extract's log entries, its schemas. */
async function readMirrors(connection: DuckDBConnection): Promise<{ cache: Array<[string, CachedResponse]>; log: LogWrite[]; schemas: SchemaWrite[] }> {
  const cache = (await connection.runAndReadAll('SELECT key, model, response, prompt_tokens, completion_tokens FROM srag_cache')).getRowsJS()
    .map((row): [string, CachedResponse] => [String(row[0]), { model: String(row[1]), text: String(row[2]), usage: { promptTokens: Number(row[3]), completionTokens: Number(row[4]) } }]);
  const log = (await connection.runAndReadAll("SELECT table_name, source, content_hash, status, error FROM srag_ingestion_log WHERE table_name LIKE 'srag_extract:%'")).getRowsJS()
    .map((row): LogWrite => ({ tableName: String(row[0]), source: String(row[1]), contentHash: String(row[2]), status: row[3] as 'done' | 'failed', error: row[4] === null ? null : String(row[4]) }));
  const schemas = (await connection.runAndReadAll('SELECT schema_key, title, schema_json FROM srag_extract_schemas')).getRowsJS()
    .map((row): SchemaWrite => ({ schemaKey: String(row[0]), title: String(row[1]), schemaJson: String(row[2]) }));
  return { cache, log, schemas };
}
