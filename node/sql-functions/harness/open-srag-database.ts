import type { DuckDBConnection, DuckDBInstance } from '@duckdb/node-api';
import { SragError, type ModelUsage } from '../../../core/index.ts';
import { bridgeWorkerUrl, LlmBridge } from '../llm-bridge/llm-bridge.ts';
import { prepareWorkerBundle } from '../../runtime/workers/worker-bundle.ts';
import { SragStore } from '../../duckdb/store/srag-store.ts';
import { StoreJournal } from '../../duckdb/store/store-journal.ts';
import { sragAskMacroSql } from '../table-functions/srag-ask.ts';
import { answerCallerRequests, createSynchronousTableExport } from '../table-functions/synchronous-table-export.ts';
import { registerSragFunctions } from './register-srag-functions.ts';

export interface OpenSragDatabaseOptions {
  /** Settings (OPENAI_*, SRAG_*); default `process.env`. Read by the bridge worker when it starts. */
  environment?: Record<string, string | undefined>;
  /** A progress bar on stderr for long scans, when stderr is a terminal (default true). */
  progress?: boolean;
  /**
   * The most documents a `srag_extract` scan holds per-document state for at once (default
   * 50,000; see `documentsPerScanRun`): a longer scan goes through them that many at a time.
   */
  documentsPerScanRun?: number;
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
  /**
   * Moves what the functions saved during statements (records, log entries, replies — each
   * journaled as it arrived) into srag's tables, where `srag why`, `srag stats` and plain SQL see
   * them. Call it after a statement; `close()` does too.
   */
  flush(): Promise<void>;
  /** Cancels the running srag call: requests in flight are aborted, the statement fails with "cancelled". */
  cancel(): void;
  close(): Promise<void>;
}

/**
 * The library entry: open (or create) a DuckDB file — or `:memory:` — with srag's bookkeeping
 * tables, and register `srag_extract` (table and scalar), `read_text` (the list form),
 * `srag_record_type`, `srag_ask` and `srag_usage`. Model calls share the store with the CLI: the
 * response cache, the ingestion log, the evidence.
 *
 * @example
 * const database = await openSragDatabase('srag.duckdb');
 * await database.connection.run(`CREATE TABLE hotels AS SELECT * FROM srag_extract('docs/*', schema := 'schema.json')`);
 * await database.close();
 */
export async function openSragDatabase(path: string, options: OpenSragDatabaseOptions = {}): Promise<SragDatabase> {
  // The bridge starts inside a DuckDB callback, where nothing can be awaited: its bundle is made ready now.
  const bundle = prepareWorkerBundle(bridgeWorkerUrl);
  const store = await SragStore.open(path);
  await bundle;
  const { instance } = store;
  const journal = store.readOnly ? undefined : StoreJournal.open(store.journalFile, await store.lastJournalSequence());
  const tableExport = await createSynchronousTableExport(instance);
  const bridge = new LlmBridge({
    environment: options.environment,
    progress: options.progress,
    documentsPerScanRun: options.documentsPerScanRun,
    control: options.control,
    onJournal: (entries) => {
      if (!journal) {
        throw new SragError({ code: 'STORE_FAILED', message: `${path} can only be read (a read-only file), so what srag_extract extracts cannot be saved`, hint: 'open a database you may write to with --db' });
      }
      journal.appendSync(entries);
    },
    answerCaller: answerCallerRequests(tableExport),
  });
  bridge.queue({ type: 'load', start: await store.readBridgeStart() });
  const connection = await instance.connect();
  registerSragFunctions(connection, bridge);
  await connection.run(sragAskMacroSql);
  const connections = [connection];

  const flush = async () => {
    if (bridge.started) await bridge.callAsync({ type: 'drain' });
    if (journal) await store.applyJournal();
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
        journal?.close();
        store.close();
      }
    },
  };
}
