import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';

let standIn: LlmStandIn;
beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
});
afterAll(async () => {
  await standIn.close();
  vi.restoreAllMocks();
});

/** DuckDB's `threads` setting as the store's connection sees it. */
async function threadsOf(store: SragStore): Promise<number> {
  return store.exclusive(async (connection) => Number((await connection.runAndReadAll("SELECT current_setting('threads')")).getRowsJS()[0]![0]));
}

describe('srag ingest and DuckDB\'s threads and row groups', () => {
  it('runs the ingest\'s statements on one DuckDB thread in a store opened for the ingest, where a store opened for anything else keeps DuckDB\'s default', async () => {
    const database = join(mkdtempSync(join(tmpdir(), 'srag-threads-')), 'srag.duckdb');
    const seen: number[] = [];
    const open = SragStore.open.bind(SragStore);
    const opened: unknown[] = [];
    vi.spyOn(SragStore, 'open').mockImplementation((path, options) => {
      opened.push(options?.forIngest);
      return open(path, options);
    });
    const refresh = SragStore.prototype.refreshStatistics;
    // The statistics at the end of the run: the largest statements an ingest runs.
    vi.spyOn(SragStore.prototype, 'refreshStatistics').mockImplementation(async function (this: SragStore, ...args: Parameters<SragStore['refreshStatistics']>) {
      seen.push(await threadsOf(this));
      return refresh.apply(this, args);
    });
    const ingest = await runSragInProcess(['ingest', 'examples/hotels/docs/amber-arch-hotel.md', '--schema', 'examples/hotels/schema.json', '--db', database],
      { environment: { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' } });
    expect(ingest.status, ingest.stderr).toBe(0);
    expect(seen).toEqual([1]);
    // Opened for the ingest's writes: its row groups (ingestRowGroupRows, tested in open-duckdb-file.test.ts).
    expect(opened).toEqual([true]);
    vi.mocked(SragStore.open).mockRestore();
    const store = await SragStore.open(database);
    try {
      // DuckDB's default is a thread per core: on a machine of one core, this test cannot tell the two apart.
      if (availableParallelism() > 1) expect(await threadsOf(store)).toBeGreaterThan(1);
    } finally {
      store.close();
    }
  });
});
