import { DuckDBInstance } from '@duckdb/node-api';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ingestCommand, type IngestCommandOptions } from '../../node/cli/ingest-command.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// The Batch API path end to end against the stand-in: submit, exit, poll, collect, and the same
// table as a normal run. Commands run in this process (one spawned CLI shows the real exit), so the
// file stays a few seconds long.

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-batch-api-'));
const apiKey = 'sk-test-BATCHKEY-0f9e8d7c6b5a';
const schema = join(repositoryRoot, 'examples/hotels/schema.json');
/** Nine hotels: a* (5), g* (2), i* (2). */
const firstDocuments = join(repositoryRoot, 'examples/hotels/docs/a*');
const laterDocuments = join(repositoryRoot, 'examples/hotels/docs/[gi]*');
const savedEnvironment = { ...process.env };
let referenceRows: string[] = [];

/** Runs `srag ingest` in this process; returns its exit status and what it printed. */
async function ingest(patterns: string[], database: string, extra: Partial<IngestCommandOptions> = {}) {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr += String(chunk);
    return true;
  });
  try {
    const status = await ingestCommand(patterns, { schema, db: database, evidence: true, ...extra }, new AbortController().signal);
    return { status, stdout, stderr };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

async function query(database: string, sql: string): Promise<unknown[][]> {
  const instance = await DuckDBInstance.create(database);
  try {
    const connection = await instance.connect();
    const rows = (await connection.runAndReadAll(sql)).getRowsJS();
    connection.closeSync();
    return rows;
  } finally {
    instance.closeSync();
  }
}

/** The table as text, one row per document, named by file name (the databases differ, the rows must not). */
async function tableRows(database: string): Promise<string[]> {
  return (await query(database, `SELECT to_json(t) FROM (SELECT * EXCLUDE ("_source"), regexp_replace("_source", '.*/', '') AS document FROM hotels) t ORDER BY document`))
    .map((row) => String(row[0]));
}

const chatRequests = () => standIn.requests.filter((request) => request.kind === 'extract-record' || request.kind === 'extract-record-batch');

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  process.env.OPENAI_BASE_URL = standIn.url;
  process.env.OPENAI_API_KEY = apiKey;
  const reference = join(workDirectory, 'reference.duckdb');
  expect((await ingest([firstDocuments, laterDocuments], reference)).status).toBe(0);
  referenceRows = await tableRows(reference);
  expect(referenceRows).toHaveLength(9);
});

afterAll(async () => {
  for (const name of ['OPENAI_BASE_URL', 'OPENAI_API_KEY']) {
    if (savedEnvironment[name] === undefined) delete process.env[name];
    else process.env[name] = savedEnvironment[name];
  }
  await standIn.close();
});

describe('srag ingest --batch-api', () => {
  it('submits the requests as one batch and exits, reports progress while it runs, and collects a table identical to a normal run', async () => {
    const database = join(workDirectory, 'batch.duckdb');
    standIn.reset();
    const submit = await runSragInProcess(['ingest', firstDocuments, laterDocuments, '--schema', schema, '--db', database, '--batch-api'], {
      environment: { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: apiKey },
    });
    expect(submit.status, submit.stderr).toBe(0);
    expect(submit.stdout).toMatch(/^hotels: 0 done, 0 failed, 0 unchanged, 9 waiting for the Batch API/);
    expect(submit.stdout).toMatch(/submitted batch batch-stand-in-\d+; re-run this command or `srag ingest --resume-batch --db \S+` to collect results/);
    // Nothing was asked directly: the requests wait in the batch's input file.
    expect(standIn.requests).toHaveLength(0);

    const poll = await ingest([firstDocuments, laterDocuments], database, { batchApi: true });
    expect(poll.status).toBe(0);
    expect(poll.stderr).toMatch(/batch batch-stand-in-\d+: in_progress, 0 of \d+ requests? answered/);
    expect(poll.stdout).toMatch(/0 done, 0 failed, 0 unchanged, 9 waiting for the Batch API/);
    expect(poll.stdout).toMatch(/waiting for batch batch-stand-in-\d+/);
    expect(await query(database, 'SELECT count(*) FROM hotels')).toEqual([[0n]]);
    expect(standIn.batchIds()).toHaveLength(1);

    const collect = await ingest([], database, { resumeBatch: true });
    expect(collect.status, collect.stderr).toBe(0);
    expect(collect.stderr).toMatch(/completed; collected \d+ repl(y|ies) \(\d+ prompt \+ \d+ completion tokens at the Batch API's price\)/);
    const lines = Number(/collected (\d+) repl/.exec(collect.stderr)![1]);
    // Short documents share a call in a batch line as in a normal run.
    expect(lines).toBeLessThan(9);
    expect(collect.stdout).toMatch(/^hotels: 9 done, 0 failed, 0 unchanged, 9 from cache; 0 model calls/);
    expect(await tableRows(database)).toEqual(referenceRows);
    // Every reply came through the batch, each request once.
    expect(chatRequests().every((request) => request.viaBatch)).toBe(true);
    expect(chatRequests()).toHaveLength(lines);
    expect(standIn.batchIds()).toHaveLength(1);
    // Evidence and the ingestion log are kept as for any reply.
    expect(await query(database, "SELECT status, count(*) FROM srag_ingestion_log GROUP BY status")).toEqual([['done', 9n]]);
    expect(Number((await query(database, "SELECT count(*) FROM srag_evidence WHERE status = 'supported'"))[0]![0])).toBeGreaterThan(9);

    const again = await ingest([firstDocuments, laterDocuments], database, { batchApi: true });
    expect(again.stdout).toMatch(/^hotels: 0 done, 0 failed, 9 unchanged/);
    expect(standIn.batchIds()).toHaveLength(1);
  });

  it('keeps only batch ids in the database, never the key', async () => {
    const database = join(workDirectory, 'batch.duckdb');
    const batches = await query(database, 'SELECT * FROM srag_batches');
    expect(JSON.stringify(batches, (_key, value) => (typeof value === 'bigint' ? Number(value) : value))).not.toContain(apiKey);
    for (const file of readdirSync(workDirectory).filter((name) => name.startsWith('batch.duckdb'))) {
      expect(readFileSync(join(workDirectory, file)).includes(apiKey)).toBe(false);
    }
  });

  it('leaves documents waiting for a batch out of a normal run, and collects them in the next one', async () => {
    const database = join(workDirectory, 'mixed.duckdb');
    standIn.reset();
    expect((await ingest([firstDocuments], database, { batchApi: true })).stdout).toMatch(/5 waiting for the Batch API/);
    const normal = await ingest([firstDocuments, laterDocuments], database);
    expect(normal.status).toBe(0);
    expect(normal.stdout).toMatch(/^hotels: 4 done, 0 failed, 0 unchanged, 5 waiting for the Batch API/);
    expect(normal.stderr).toMatch(/in_progress, 0 of \d+ requests? answered/);
    // Only the four documents outside the batch were sent directly.
    const direct = chatRequests().filter((request) => !request.viaBatch).length;
    expect(direct).toBeGreaterThan(0);
    const next = await ingest([firstDocuments, laterDocuments], database);
    expect(next.stdout).toMatch(/^hotels: 5 done, 0 failed, 4 unchanged, 5 from cache/);
    expect(chatRequests().filter((request) => !request.viaBatch)).toHaveLength(direct);
    expect(chatRequests().filter((request) => request.viaBatch)).toHaveLength(Number(/collected (\d+) repl/.exec(next.stderr)![1]));
    expect(await tableRows(database)).toEqual(referenceRows);
  });

  it('sends the lines a batch did not answer (expired, failed) the ordinary way, and ends with every document done once', async () => {
    const database = join(workDirectory, 'failed-lines.duckdb');
    standIn.reset();
    standIn.setOptions({ batchFailedLines: 3 });
    // One document per line, so that three lines are three documents.
    const oneEach = { batchApi: true, batchSize: 1 };
    try {
      expect((await ingest([firstDocuments, laterDocuments], database, oneEach)).status).toBe(0);
      expect((await ingest([firstDocuments, laterDocuments], database, oneEach)).stdout).toMatch(/9 waiting/);
      const collect = await ingest([firstDocuments, laterDocuments], database, oneEach);
      expect(collect.status, collect.stderr).toBe(0);
      expect(collect.stderr).toMatch(/collected 6 replies .*; 3 requests not answered \(first: batch_expired: This request could not be executed/);
      expect(collect.stdout).toMatch(/^hotels: 9 done, 0 failed, 0 unchanged, 6 from cache; 3 model calls/);
    } finally {
      standIn.setOptions({ batchFailedLines: 0 });
    }
    expect(chatRequests().filter((request) => !request.viaBatch)).toHaveLength(3);
    expect(standIn.batchIds().length).toBeGreaterThan(0);
    expect(await tableRows(database)).toEqual(referenceRows);
    expect(await query(database, 'SELECT count(*), count(DISTINCT "_source") FROM hotels')).toEqual([[9n, 9n]]);
  });

  it('sends a request a batch reply leads to (a reply that is not JSON, asked again) as a new batch, and finishes with it', async () => {
    const database = join(workDirectory, 'follow-up.duckdb');
    standIn.reset();
    standIn.setOptions({ batchPollsUntilDone: 0, batchMalformedLines: 1 });
    const batchesBefore = standIn.batchIds().length;
    try {
      // One document per line; --resume-batch below is not told, the submission remembers.
      expect((await ingest([firstDocuments], database, { batchApi: true, batchSize: 1 })).status).toBe(0);
      const collect = await ingest([firstDocuments], database, { batchApi: true, batchSize: 1 });
      expect(collect.stdout).toMatch(/^hotels: 4 done, 0 failed, 0 unchanged, 1 waiting for the Batch API, 4 from cache; 0 model calls/);
      expect(collect.stdout).toMatch(/submitted batch batch-stand-in-\d+;/);
      expect(standIn.batchIds()).toHaveLength(batchesBefore + 2);
      const last = await ingest([], database, { resumeBatch: true });
      // The follow-up batch's run goes over the first run's documents again, in order: the four done are unchanged.
      expect(last.stdout).toMatch(/^hotels: 1 done, 0 failed, 4 unchanged, 1 from cache; 0 model calls/);
    } finally {
      standIn.setOptions({ batchPollsUntilDone: 1, batchMalformedLines: 0 });
    }
    expect(chatRequests().every((request) => request.viaBatch)).toBe(true);
    expect(chatRequests()).toHaveLength(6);
    expect(await tableRows(database)).toEqual(referenceRows.slice(0, 5));
    expect(await query(database, 'SELECT count(*) FROM srag_batch_documents')).toEqual([[0n]]);
  });

  it('reads a batch\'s replies when the documents come back in another order among new ones: its documents run again as they were submitted', async () => {
    const database = join(workDirectory, 'order.duckdb');
    standIn.reset();
    standIn.setOptions({ batchPollsUntilDone: 0 });
    const batchesBefore = standIn.batchIds().length;
    try {
      expect((await ingest([laterDocuments], database, { batchApi: true })).stdout).toMatch(/4 waiting for the Batch API/);
      // The later documents now sort after five new ones: were they grouped anew, none would find its reply.
      const collect = await ingest([firstDocuments, laterDocuments], database);
      expect(collect.status, collect.stderr).toBe(0);
      expect(collect.stdout).toMatch(/^hotels: 9 done, 0 failed, 0 unchanged, 4 from cache/);
      // Each line the batch answered was read, and none of its documents was asked again directly.
      const collected = Number(/collected (\d+) repl/.exec(collect.stderr)?.[1]);
      expect(chatRequests().filter((request) => request.viaBatch)).toHaveLength(collected);
      expect(standIn.batchIds()).toHaveLength(batchesBefore + 1);
    } finally {
      standIn.setOptions({ batchPollsUntilDone: 1 });
    }
    expect(await tableRows(database)).toEqual(referenceRows);
    expect(await query(database, 'SELECT count(*) FROM srag_batch_documents')).toEqual([[0n]]);
  });

  it('records a batch whose creation Ctrl-C interrupted, so the rerun waits for it instead of submitting a second one', async () => {
    const database = join(workDirectory, 'interrupted.duckdb');
    standIn.reset();
    standIn.setOptions({ batchCreateDelayMs: 1_500 });
    const started = standIn.batchCreatesStarted();
    const interrupt = new AbortController();
    let stdout = '';
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      stdout += String(chunk);
      return true;
    });
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const running = ingestCommand([firstDocuments], { schema, db: database, evidence: true, batchApi: true }, interrupt.signal);
      await vi.waitFor(() => expect(standIn.batchCreatesStarted()).toBe(started + 1), { timeout: 60_000, interval: 20 });
      interrupt.abort();
      expect(await running).toBe(0);
    } finally {
      out.mockRestore();
      err.mockRestore();
      standIn.setOptions({ batchCreateDelayMs: 0 });
    }
    expect(stdout).toMatch(/submitted batch batch-stand-in-\d+/);
    const batchesAfterInterrupt = standIn.batchIds().length;
    const rerun = await ingest([firstDocuments], database, { batchApi: true });
    expect(rerun.stdout).toMatch(/5 waiting for the Batch API/);
    expect(rerun.stdout).toMatch(/waiting for batch batch-stand-in-\d+/);
    expect(standIn.batchIds()).toHaveLength(batchesAfterInterrupt);
  });

  it('estimates a --batch-api run at half the price with --dry-run, and leaves out documents a batch still works on', async () => {
    const database = join(workDirectory, 'dry-run.duckdb');
    standIn.reset();
    type Estimate = { documents: number; calls: number; prompt_tokens: number; cost_usd: number; waiting_for_batch_api?: number };
    const ordinary = JSON.parse((await ingest([firstDocuments, laterDocuments], database, { dryRun: true, json: true })).stdout) as Estimate;
    const viaBatch = JSON.parse((await ingest([firstDocuments, laterDocuments], database, { dryRun: true, json: true, batchApi: true })).stdout) as Estimate;
    expect(ordinary.cost_usd).toBeGreaterThan(0);
    expect(viaBatch.prompt_tokens).toBe(ordinary.prompt_tokens);
    expect(viaBatch.cost_usd).toBeCloseTo(ordinary.cost_usd / 2, 10);
    const text = await ingest([firstDocuments, laterDocuments], database, { dryRun: true, batchApi: true });
    expect(text.stdout).toMatch(/at \S+'s Batch API prices \(half the usual, no prompt caching counted; answered within 24 hours\)\n$/);
    expect(standIn.requests).toHaveLength(0);
    expect((await ingest([laterDocuments], database, { batchApi: true })).stdout).toMatch(/4 waiting for the Batch API/);
    const afterSubmit = JSON.parse((await ingest([firstDocuments, laterDocuments], database, { dryRun: true, json: true })).stdout) as Estimate;
    expect(afterSubmit).toMatchObject({ documents: 5, waiting_for_batch_api: 4 });
  });

  it('says how to start when --resume-batch finds no submission', async () => {
    const database = join(workDirectory, 'reference.duckdb');
    await expect(ingest([], database, { resumeBatch: true })).rejects.toThrow(/no Batch API submission waits in .*reference\.duckdb/);
  });
});
