import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot, runSrag } from '../helpers/run-srag.ts';

let standIn: LlmStandIn;
const environment = (settings: Record<string, string> = {}) => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8', ...settings });

/** A scratch directory that sees the repository's examples as its own, with its own examples/output/ for what jobs write. */
function jobDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), 'srag-run-'));
  mkdirSync(join(directory, 'examples/output'), { recursive: true });
  for (const entry of ['hotels', 'batch.sql']) symlinkSync(join(repositoryRoot, 'examples', entry), join(directory, 'examples', entry));
  return directory;
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
});
afterAll(async () => {
  await standIn.close();
});

describe('srag run FILE.sql', () => {
  it('runs examples/batch.sql end to end: extract, materialize, aggregate, ask, export to parquet', async () => {
    const directory = jobDirectory();
    standIn.reset();
    const run = await runSrag(['run', 'examples/batch.sql', '--db', 'batch.duckdb'], { cwd: directory, environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('-- statement 1 of 8 (examples/batch.sql:7): CREATE OR REPLACE TABLE hotels AS\nok: 50 rows');
    expect(run.stdout).toMatch(/Spain +│ 11 /);
    expect(run.stdout).toContain("11     │ SELECT COUNT(*) FROM hotels WHERE country = 'Spain'");
    const counts = standIn.countByKind();
    expect(run.stderr).toBe(`gpt-4o-mini: ${standIn.requests.length} model calls, 0 cache hits, 0 retries, ` + run.stderr.split('retries, ')[1]);
    // The 50 short pages share calls (srag_extract batches by default).
    expect(counts).toEqual({ 'extract-record-batch': expect.any(Number), 'generate-sql': 1, answer: 1 });
    expect(counts['extract-record-batch']).toBeLessThanOrEqual(10);

    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    const exported = (await connection.runAndReadAll(`SELECT count(*), count(DISTINCT country), typeof(any_value(star_rating)), typeof(any_value(opened_date)) FROM read_parquet('${join(directory, 'examples/output/hotels.parquet')}')`)).getRowsJS();
    expect(exported).toEqual([[50n, 7n, 'BIGINT', 'DATE']]);
    expect(existsSync(join(directory, 'examples/output/hotels_by_country.parquet'))).toBe(true);
    connection.closeSync();
    instance.closeSync();

    standIn.reset();
    const again = await runSragInProcess(['run', 'examples/batch.sql', '--db', 'batch.duckdb'], { cwd: directory, environment: environment() });
    expect(again.status, again.stderr).toBe(0);
    // The pages come back from their stored records, the question's two replies from the cache.
    expect(again.stderr).toMatch(/^gpt-4o-mini: 0 model calls, 2 cache hits/);
    expect(standIn.requests).toHaveLength(0);
  });

  it('stops at the first failing statement with one line naming it and the line it starts on', async () => {
    const directory = jobDirectory();
    writeFileSync(join(directory, 'job.sql'), 'SELECT 1 AS one;\n\n-- the next statement fails\nSELECT *\nFROM no_such_table;\nSELECT 3 AS never;\n');
    const run = await runSragInProcess(['run', 'job.sql', '--db', ':memory:'], { cwd: directory, environment: environment() });
    expect(run.status).toBe(5);
    expect(run.stderr).toBe('srag: statement 2 of 3 (job.sql:4) failed: Catalog Error: Table with name no_such_table does not exist!\n');
    expect(run.stdout).toContain('-- statement 1 of 3 (job.sql:1): SELECT 1 AS one');
    expect(run.stdout).not.toContain('never');
  });

  it('names a failure inside an srag function once, as the function said it, with the exit status of its code', async () => {
    const directory = jobDirectory();
    const run = await runSrag(['run', 'examples/batch.sql', '--db', 'unconfigured.duckdb'], { cwd: directory, environment: { OPENAI_BASE_URL: '', OPENAI_API_KEY: '' } });
    expect(run.status).toBe(3);
    expect(run.stderr).toMatch(/^srag: statement 1 of 8 \(examples\/batch\.sql:7\) failed: srag_extract: no LLM endpoint is configured — set OPENAI_API_KEY .*\n$/);
    expect(run.stderr).not.toContain('Invalid Input Error');
  });

  it('cancels cleanly on Ctrl-C: requests in flight are aborted, the job stops, the exit status is 130', async () => {
    const directory = jobDirectory();
    writeFileSync(join(directory, 'slow.sql'), "CREATE TABLE hotels AS SELECT * FROM srag_extract('examples/hotels/docs/*', schema := 'examples/hotels/schema.json');\nCOPY hotels TO 'hotels.parquet' (FORMAT parquet);\n");
    standIn.reset();
    standIn.setOptions({ latencyMs: 400 });
    let interruptedAt = 0;
    try {
      const run = await runSrag(['run', 'slow.sql', '--db', 'slow.duckdb'], {
        cwd: directory,
        environment: environment({ SRAG_CONCURRENCY: '2' }),
        onSpawn: (child) => {
          const poll = setInterval(() => {
            if (standIn.requests.length < 2) return;
            clearInterval(poll);
            interruptedAt = Date.now();
            child.kill('SIGINT');
          }, 20);
        },
      });
      expect(Date.now() - interruptedAt).toBeLessThan(3000);
      expect(run.status).toBe(130);
      expect(run.stderr).toMatch(/srag: statement 1 of 2 \(slow\.sql:1\) failed: cancelled/);
      expect(existsSync(join(directory, 'hotels.parquet'))).toBe(false);
      expect(standIn.requests.length).toBeLessThan(50);
    } finally {
      standIn.setOptions({ latencyMs: 0 });
    }
  });
});
