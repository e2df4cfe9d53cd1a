import { parentPort, workerData } from 'node:worker_threads';
import { DuckDBInstance } from '@duckdb/node-api';
import { SragError } from '../../../core/index.ts';
import { registerSragFunctions } from '../../../node/sql-functions/harness/register-srag-functions.ts';
import { LlmBridge } from '../../../node/sql-functions/llm-bridge/llm-bridge.ts';
import type { JournalEntry } from '../../../node/duckdb/store/journal-entry.ts';

/**
 * A worker for the store-failure test: DuckDB with the srag functions, whose store journal fails
 * past `entriesBeforeFailure` entries like a disk that just filled up. It runs `sql` (a scan blocks
 * this thread, so the stand-in must live elsewhere) and posts back the error and what was journaled.
 */
const { standInUrl, entriesBeforeFailure, sql } = workerData as { standInUrl: string; entriesBeforeFailure: number; sql: string };
const journaled: JournalEntry[] = [];
const bridge = new LlmBridge({
  environment: { OPENAI_BASE_URL: standInUrl, SRAG_MAX_RETRIES: '0' },
  progress: false,
  onJournal: (entries) => {
    if (journaled.length + entries.length > entriesBeforeFailure) {
      throw new SragError({ code: 'STORE_FAILED', message: 'cannot write to the database test.duckdb: IO Error: No space left on device', hint: 'free disk space and run the statement again' });
    }
    journaled.push(...entries);
  },
});
bridge.queue({ type: 'load', start: { schemaKeys: [], cache: [] } });
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
registerSragFunctions(connection, bridge);
let error: string | undefined;
try {
  await connection.run(sql);
} catch (failure) {
  error = (failure as Error).message;
}
await bridge.close();
connection.closeSync();
instance.closeSync();
parentPort!.postMessage({ error, journaled: journaled.map((entry) => entry.kind) });
