import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runProcess } from '../helpers/run-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// bin/srag.js gives `srag ingest` one thread in libuv's pool, where node-api runs DuckDB's
// statements (see there why). libuv reads UV_THREADPOOL_SIZE once, when the pool first takes work,
// and Node reads an ES module entry through the pool: so the entry is CommonJS and sets it first.
// A preload records, as the command exits, the variable and how many threads the process has.

let standIn: LlmStandIn;
let directory: string;
let preload: string;
beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  directory = mkdtempSync(join(tmpdir(), 'srag-thread-pool-'));
  preload = join(directory, 'record-threads.cjs');
  writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(process.env.SRAG_TEST_RECORD, JSON.stringify({
    pool: process.env.UV_THREADPOOL_SIZE ?? null, threads: require('node:fs').readdirSync('/proc/self/task').length })));`);
});
afterAll(async () => {
  await standIn?.close();
});

/** Runs bin/srag.js with `args` (and `environment`) and gives what the preload recorded at its exit. */
async function recorded(name: string, args: string[], environment: Record<string, string> = {}): Promise<{ pool: string | null; threads: number }> {
  const record = join(directory, `${name}.json`);
  const { OPENAI_BASE_URL: _url, UV_THREADPOOL_SIZE: _pool, ...inherited } = process.env;
  const run = await runProcess(process.execPath, ['--require', preload, join(repositoryRoot, 'bin/srag.js'), ...args], {
    cwd: repositoryRoot,
    env: { ...inherited, OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_TEST_RECORD: record, ...environment },
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(readFileSync(record, 'utf8')) as { pool: string | null; threads: number };
}

describe('srag ingest and libuv\'s thread pool', () => {
  it.runIf(process.platform === 'linux')('runs srag ingest with a pool of one thread, from its start; keeps a size the user set; leaves other commands at libuv\'s four', async () => {
    const page = 'examples/hotels/docs/amber-arch-hotel.md';
    const ingest = (name: string, environment?: Record<string, string>) => recorded(name, ['ingest', page, '--schema', 'examples/hotels/schema.json', '--db', join(directory, `${name}.duckdb`)], environment);
    const one = await ingest('one');
    const four = await ingest('four', { UV_THREADPOOL_SIZE: '4' });
    expect(one.pool).toBe('1');
    expect(four.pool).toBe('4');
    // The same command with three more threads in its pool: the size took effect, set before the pool started.
    expect(four.threads - one.threads).toBe(3);
    expect((await recorded('stats', ['stats', '--db', join(directory, 'one.duckdb')])).pool).toBeNull();
  });
});
