import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ingestCommand, type IngestCommandOptions } from '../../node/cli/ingest-command.ts';
import { countTokens } from '../../node/runtime/count-tokens.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

/**
 * Know before you spend: `srag ingest --dry-run` estimates from the very plan the run follows,
 * and `--max-cost` stops a run at a budget, keeping what is done. The command runs in this
 * process (its settings from `vi.stubEnv`), as `srag ingest` runs it.
 */

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-cost-'));
const documents = join(workDirectory, 'docs');
const schema = join(repositoryRoot, 'examples/hotels/schema.json');
/** `srag ingest DOCUMENTS --schema … --db DATABASE` with `options`, under the stand-in's settings and `environment`. */
async function ingest(database: string, options: Partial<IngestCommandOptions> = {}, environment: Record<string, string> = {}) {
  for (const [name, value] of Object.entries({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '4', SRAG_PRICES: '', SRAG_EXTRACT_MODEL: '', SRAG_MODEL: '', ...environment })) vi.stubEnv(name, value);
  try {
    return await runCommandInProcess((signal) => ingestCommand([`${documents}/*`], { schema, db: database, evidence: true, ...options }, signal), { database });
  } finally {
    vi.unstubAllEnvs();
  }
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  mkdirSync(documents);
  for (const name of readdirSync(join(repositoryRoot, 'examples/hotels/docs')).sort().slice(0, 30)) cpSync(join(repositoryRoot, 'examples/hotels/docs', name), join(documents, name));
});
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(async () => {
  await standIn.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

/** The o200k tokens of every extraction request's messages: what the run sent, counted as the dry run counts. */
function promptTokensSent(): number {
  return standIn.requests.filter((request) => request.kind.startsWith('extract-record'))
    .reduce((sum, request) => sum + (request.body.messages as Array<{ content: string }>).reduce((tokens, message) => tokens + countTokens(message.content), 0), 0);
}

async function rowCounts(database: string): Promise<[number, number]> {
  const instance = await DuckDBInstance.create(database, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    const [rows, sources] = (await connection.runAndReadAll('SELECT count(*)::INTEGER, count(DISTINCT "_source")::INTEGER FROM hotels')).getRowsJS()[0]!;
    connection.closeSync();
    return [rows as number, sources as number];
  } finally {
    instance.closeSync();
  }
}

describe('srag ingest --dry-run', () => {
  it('makes no model call, and estimates the documents, calls and prompt tokens the run then sends within 25%', async () => {
    const database = join(workDirectory, 'estimate.duckdb');
    standIn.reset();
    const dry = await ingest(database, { dryRun: true, json: true });
    expect(dry.status, dry.stderr).toBe(0);
    expect(standIn.requests).toHaveLength(0);
    // Saves nothing: not even an empty database file.
    expect(existsSync(database)).toBe(false);
    const estimate = JSON.parse(dry.stdout) as { documents: number; calls: number; prompt_tokens: number; completion_tokens: number; cost_usd: number | null };
    expect(Object.keys(estimate).slice(0, 5)).toEqual(['documents', 'calls', 'prompt_tokens', 'completion_tokens', 'cost_usd']);
    expect(estimate.documents).toBe(30);
    // gpt-4o-mini (the default model) is in the built-in price list.
    expect(estimate.cost_usd).toBeGreaterThan(0);

    const run = await ingest(database, { json: true });
    expect(run.status, run.stderr).toBe(0);
    const summary = JSON.parse(run.stdout) as { done: number; calls: number; cost_usd: number; cached_prompt_tokens: number };
    expect(summary.done).toBe(30);
    expect(summary.calls).toBe(estimate.calls);
    const sent = promptTokensSent();
    expect(Math.abs(estimate.prompt_tokens - sent) / sent).toBeLessThanOrEqual(0.25);
    expect(summary.cost_usd).toBeGreaterThan(0);
    expect(summary.cached_prompt_tokens).toBeGreaterThan(0);

    // Unchanged documents cost nothing, and the estimate knows it.
    const again = JSON.parse((await ingest(database, { dryRun: true, json: true })).stdout);
    expect(again).toMatchObject({ documents: 0, calls: 0, prompt_tokens: 0, left_alone: 30 });
  });

  it('shows tokens without a price for a model it has no price for, and says so; a prices file gives one', async () => {
    const database = join(workDirectory, 'unpriced.duckdb');
    const unknown = await ingest(database, { dryRun: true }, { SRAG_EXTRACT_MODEL: 'house-model-7b' });
    expect(unknown.status, unknown.stderr).toBe(0);
    expect(unknown.stdout).toMatch(/^hotels \(dry run, no model call\): 30 documents to extract; \d+ model calls, \d+ prompt \+ up to ~\d+ completion tokens; cost unknown: no price for model "house-model-7b" \(add one to a prices file named by SRAG_PRICES\)\n$/);
    const prices = join(workDirectory, 'prices.json');
    writeFileSync(prices, JSON.stringify({ 'house-model-7b': { input: 1, output: 2 } }));
    const priced = JSON.parse((await ingest(database, { dryRun: true, json: true }, { SRAG_EXTRACT_MODEL: 'house-model-7b', SRAG_PRICES: prices })).stdout);
    expect(priced.cost_usd).toBeCloseTo((priced.prompt_tokens * 1 + priced.completion_tokens * 2) / 1_000_000, 10);
    const refused = await ingest(database, { maxCost: 1 }, { SRAG_EXTRACT_MODEL: 'house-model-7b' });
    expect(refused.status).toBe(2);
    // The fix is data (`price-model`), which the CLI words with its own option.
    expect(refused.stderr).toBe('srag: a spending limit needs the price of model "house-model-7b", which srag does not know — add it to a JSON file of prices and set SRAG_PRICES to its path: ' +
      '{"house-model-7b": {"input": …, "cached_input": …, "output": …}} in USD per million tokens (or leave out --max-cost)\n');

    expect(standIn.requests.some((request) => request.model === 'house-model-7b')).toBe(false);
  });
});

describe('srag ingest --max-cost', () => {
  it('stops before the budget is spent, keeps what is done, and a rerun resumes without duplicates', async () => {
    const database = join(workDirectory, 'budget.duckdb');
    // A made-up price high enough that a group of pages costs about a dollar.
    const prices = join(workDirectory, 'expensive.json');
    writeFileSync(prices, JSON.stringify({ 'gpt-4o-mini': { input: 100, cached_input: 100, output: 100 } }));
    const priced = { SRAG_PRICES: prices };
    const estimate = JSON.parse((await ingest(database, { dryRun: true, json: true }, priced)).stdout) as { cost_usd: number };
    const budget = estimate.cost_usd / 2;
    const warned = await ingest(database, { dryRun: true, maxCost: budget }, priced);
    expect(warned.stdout).toMatch(/ — over --max-cost \$\d+\.\d+, so the run would stop early \(what is done is kept; rerun to go on\)\n$/);
    standIn.reset();
    const stopped = await ingest(database, { maxCost: budget, json: true }, priced);
    expect(stopped.status, stopped.stderr).toBe(4);
    const summary = JSON.parse(stopped.stdout) as { done: number; cost_usd: number; budget_reached: boolean };
    expect(summary.budget_reached).toBe(true);
    expect(summary.done).toBeGreaterThan(0);
    expect(summary.done).toBeLessThan(30);
    expect(summary.cost_usd).toBeLessThanOrEqual(budget);
    expect(stopped.stderr).toMatch(/stopped before spending more than --max-cost \$\d+\.\d+: \d+ documents not extracted yet; what is done is saved — run the same command again to go on/);
    expect(await rowCounts(database)).toEqual([summary.done, summary.done]);

    const resumed = await ingest(database, { json: true }, priced);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ done: 30 - summary.done, unchanged: summary.done, failed: 0, budget_reached: false });
    expect(await rowCounts(database)).toEqual([30, 30]);
  });
});
