import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker } from '../../node/runtime/workers/start-worker.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';

let standIn: LlmStandIn;
beforeAll(async () => {
  // Replies take 100 ms, as a model's do: the failed write reaches the run long before the calls
  // started meanwhile return. Answered at once, those returned first and freed their slots for more.
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'], latencyMs: 100 });
});
afterAll(async () => {
  await standIn.close();
});

describe('srag_extract when the store cannot save', () => {
  it('stops the scan at the first failed write, marks no document failed, and says what to do', async () => {
    standIn.reset();
    const worker = startWorker(new URL('./helpers/scan-with-failing-store.ts', import.meta.url), {
      standInUrl: standIn.url,
      entriesBeforeFailure: 3,
      sql: "SELECT * FROM srag_extract('examples/hotels/docs/*', schema := 'examples/hotels/schema.json', concurrency := 2)",
    });
    const [result] = await once(worker, 'message') as [{ error?: string; journaled: string[] }];
    await worker.terminate();
    expect(result.error).toMatch(/srag_extract: store failed: cannot write to the database test\.duckdb: IO Error: No space left on device — free disk space and run the statement again/);
    // The run stopped at once: what was in flight finished, nothing more was started.
    expect(standIn.requests.length).toBeLessThanOrEqual(4);
    // No document was marked failed for the store's fault.
    expect(result.journaled[0]).toBe('schema');
    expect(result.journaled).not.toContain('log');
  });
});
