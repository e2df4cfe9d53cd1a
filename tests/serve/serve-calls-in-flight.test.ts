import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { startServe } from '../../node/serve/start-serve.ts';
import { startLlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

it('runs an ingest job with more model calls in flight than Node warns about on one signal, and prints no warning', async () => {
  // Replies after 100 ms, so that the job's 16 calls are in flight at once; one page per call.
  const standIn = await startLlmStandIn({ corpora: ['examples/hotels'], latencyMs: 100 });
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on('warning', onWarning);
  const server = await startServe({
    db: join(mkdtempSync(join(tmpdir(), 'srag-serve-in-flight-')), 'srag.duckdb'), port: 0, host: '127.0.0.1', directory: repositoryRoot,
    environment: { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '16', SRAG_CONFIRM_DOCUMENTS: '100' },
  });
  try {
    const accepted = await fetch(`${server.url}/ingest`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ paths: ['examples/hotels/docs'], schema: 'examples/hotels/schema.json', batchSize: 1 }),
    });
    expect(accepted.status).toBe(202);
    const { id } = await accepted.json() as { id: string };
    let job: { status: string; result?: { summary: { done: number } } };
    do {
      await sleep(50);
      job = await (await fetch(`${server.url}/jobs/${id}`)).json() as typeof job;
    } while (job.status !== 'done' && job.status !== 'failed');
    expect(job.status).toBe('done');
    expect(job.result!.summary.done).toBe(50);
    // Node reports a warning on the next turn of the event loop.
    await sleep(10);
    expect(warnings).toEqual([]);
  } finally {
    process.off('warning', onWarning);
    await server.close();
    await standIn.close();
  }
});
