import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseRecordSchema } from '../../core/index.ts';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { ingestOutcomeJson, openSrag } from '../../node/index.ts';
import { resolveDocuments } from '../../node/runtime/resolve-documents.ts';
import { canonicalPath } from '../../node/runtime/canonical-path.ts';
import { createServeApp } from '../../node/serve/create-serve-app.ts';
import { IngestJobs } from '../../node/serve/ingest-jobs.ts';
import { ServedFolders } from '../../node/serve/served-folders.ts';
import { openSession, type Session } from '../../node/session/open-session.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { documentMarkers } from '../helpers/llm-stand-in/respond-extract-record.ts';
import { requestedAttributesPerDocument } from '../helpers/requested-attributes.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';
import { carListingSchema, generateTemplatedCorpus } from '../helpers/templated-corpus.ts';

// `POST /ingest` offers what `srag ingest` offers, through the one ingest use case: the same
// summary for the same ingest, a dry run answered at once, a budget, the Batch API and synthesized
// extractors. The app runs in this process (`app.request`), as does the CLI command it is compared
// with (`ingestCommand`), against an in-process stand-in.

interface ErrorBody { error: { code: string; message: string; hint?: string; fix?: Record<string, unknown> } }
interface JobBody {
  id: string;
  status: string;
  progress: { completed: number; total: number };
  result?: Record<string, unknown> & { summary: { done: number }; done: number; failed: number; unchanged: number; from_cache: number; budget_reached: boolean; cost_usd: number | null; batch_api?: { waiting: number; submitted: string[]; open: string[]; collected_replies: number }; synthesis?: { mode: string; extractors: Array<{ attribute: string; status: string }>; valuesFromCode: Record<string, number> } };
  warnings: string[];
  error?: ErrorBody['error'];
}
interface Estimate { documents: number; calls: number; prompt_tokens: number; completion_tokens: number; cost_usd: number | null; table: string }

const base = canonicalPath(mkdtempSync(join(tmpdir(), 'srag-serve-ingest-')));
const served = join(base, 'served');
const hotelPages = readdirSync(join(repositoryRoot, 'examples/hotels/docs')).sort();
let standIn: LlmStandIn;
const abort = new AbortController();
const sessions: Session[] = [];
const jobLists: IngestJobs[] = [];
let app: ReturnType<typeof createServeApp>;
let jobs: IngestJobs;

/** The settings of the server, and of the CLI command compared with it. */
const settings = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_MAX_RETRIES: '0', SRAG_CONCURRENCY: '2', SRAG_PRICES: '', SRAG_EXTRACT_MODEL: '', SRAG_MODEL: '' });

/** A server over its own database with `environment`: the app, in this process, and its jobs. */
async function startApp(name: string, environment: Record<string, string>) {
  const session = await openSession(join(base, `${name}.duckdb`), { abortSignal: abort.signal, environment });
  sessions.push(session);
  const ingestJobs = await IngestJobs.open(session, abort.signal, ServedFolders.open([], served));
  jobLists.push(ingestJobs);
  return { jobs: ingestJobs, app: createServeApp({ session, jobs: ingestJobs, openReader: () => session.store.instance.connect() }) };
}

async function call<T>(path: string, json?: unknown, through = app): Promise<{ status: number; body: T }> {
  const response = await through.request(path, json === undefined
    ? { headers: { host: '127.0.0.1' } }
    : { method: 'POST', headers: { host: '127.0.0.1', 'content-type': 'application/json' }, body: JSON.stringify(json) });
  return { status: response.status, body: await response.json() as T };
}

/** Submits an ingest job and waits until it ends. */
async function job(request: Record<string, unknown>): Promise<JobBody> {
  const accepted = await call<JobBody>('/ingest', request);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
  await jobs.idle();
  const ended = (await call<JobBody>(`/jobs/${accepted.body.id}`)).body;
  expect(ended.status, JSON.stringify(ended.error)).toBe('done');
  return ended;
}

const extractionRequests = () => standIn.requests.filter((request) => request.kind.startsWith('extract-record'));

beforeAll(async () => {
  for (const [folder, pages] of [['hotels', hotelPages.slice(0, 4)], ['budget', hotelPages.slice(4, 12)], ['batch', hotelPages.slice(12, 15)]] as const) {
    mkdirSync(join(served, folder), { recursive: true });
    for (const page of pages) copyFileSync(join(repositoryRoot, 'examples/hotels/docs', page), join(served, folder, page));
  }
  copyFileSync(join(repositoryRoot, 'examples/hotels/schema.json'), join(served, 'schema.json'));
  // A document every model call fails on: a failure both surfaces must count alike.
  mkdirSync(join(served, 'failing'));
  writeFileSync(join(served, 'failing/failing.md'), `${documentMarkers.alwaysServerError}\nThe failing page.\n`);
  generateTemplatedCorpus(join(served, 'cars'), 16);
  standIn = await startLlmStandIn({ corpora: ['examples/hotels', join(served, 'cars')] });
  ({ app, jobs } = await startApp('serve', settings()));
}, 60_000);
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(async () => {
  abort.abort();
  for (const list of jobLists) await list.idle().catch(() => undefined);
  for (const session of sessions) session.close();
  await standIn?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('POST /ingest and srag ingest', () => {
  it('give the same summary for the same ingest, and the same estimate for its dry run', async () => {
    const database = join(base, 'cli.duckdb');
    const cli = async (options: { dryRun?: boolean }) => {
      for (const [name, value] of Object.entries(settings())) vi.stubEnv(name, value);
      const run = await runCommandInProcess((signal) => ingestCommand([join(served, 'hotels'), join(served, 'failing')], {
        schema: join(served, 'schema.json'), db: database, table: 'hotels', evidence: true, json: true, ...options,
      }, signal), { database });
      vi.unstubAllEnvs();
      return run;
    };
    const request = { paths: ['hotels', 'failing'], schema: 'schema.json', table: 'hotels' };

    standIn.reset();
    const cliEstimate = await cli({ dryRun: true });
    expect(cliEstimate.status, cliEstimate.stderr).toBe(0);
    const jobsBefore = jobs.list().length;
    const estimate = await call<Estimate>('/ingest', { ...request, dryRun: true });
    // A dry run answers at once, with no job, no model call and no table.
    expect(estimate.status).toBe(200);
    expect(jobs.list()).toHaveLength(jobsBefore);
    expect(standIn.requests).toHaveLength(0);
    expect(estimate.body).toEqual(JSON.parse(cliEstimate.stdout));
    expect(estimate.body).toMatchObject({ documents: 5, table: 'hotels' });
    expect(estimate.body.cost_usd).toBeGreaterThan(0);
    // The package's facade runs the same use case.
    const srag = await openSrag(join(base, 'facade.duckdb'), { environment: settings() });
    try {
      const documents = (await resolveDocuments([join(served, 'hotels'), join(served, 'failing')])).documents;
      const outcome = await srag.ingest({ documents, schema: parseRecordSchema(JSON.parse(readFileSync(join(served, 'schema.json'), 'utf8')), 'schema.json'), table: 'hotels', dryRun: true, retryHint: '' });
      expect(ingestOutcomeJson(outcome, { database: srag.database })).toEqual(estimate.body);
    } finally {
      srag.close();
    }

    standIn.reset();
    const cliRun = await cli({});
    expect(cliRun.status).toBe(1);
    standIn.reset();
    const ended = await job(request);
    expect(ended.progress).toMatchObject({ completed: 5, total: 5 });
    const { summary, usage, database: serveDatabase, ...serveSummary } = ended.result!;
    const { database: cliDatabase, ...cliSummary } = JSON.parse(cliRun.stdout) as Record<string, unknown>;
    expect(serveSummary).toEqual(cliSummary);
    expect([serveDatabase, cliDatabase]).toEqual([join(base, 'serve.duckdb'), database]);
    expect(serveSummary).toMatchObject({ table: 'hotels', documents: 5, done: 4, failed: 1, budget_reached: false });
    expect(serveSummary.calls).toBeGreaterThan(0);
    expect(serveSummary.cost_usd).toBeGreaterThan(0);
    // The run's counts as the first version of the API gave them, failures named.
    expect(summary).toMatchObject({ done: 4, failed: 1, failures: [expect.objectContaining({ label: expect.stringContaining('failing.md') })] });
    expect(usage).toMatchObject({ calls: serveSummary.calls });
  }, 60_000);
});

describe('POST /ingest', () => {
  it('stops a job at maxCost with what is done saved and says so; the same job again goes on without duplicates', async () => {
    // One document per call, so that half the estimate stops the run between documents.
    const request = { paths: ['budget'], schema: 'schema.json', table: 'hotels_budget', batchSize: 1 };
    const estimate = (await call<Estimate>('/ingest', { ...request, dryRun: true })).body;
    expect(estimate).toMatchObject({ documents: 8, calls: 8 });
    const budget = estimate.cost_usd! / 2;
    standIn.reset();
    const stopped = await job({ ...request, maxCost: budget });
    expect(stopped.result).toMatchObject({ budget_reached: true, failed: 0 });
    expect(stopped.result!.done).toBeGreaterThan(0);
    expect(stopped.result!.done).toBeLessThan(8);
    expect(stopped.result!.cost_usd).toBeLessThanOrEqual(budget);
    expect(extractionRequests()).toHaveLength(stopped.result!.done);
    const left = 8 - stopped.result!.done;
    expect(stopped.warnings).toContainEqual(expect.stringMatching(new RegExp(`^stopped before spending more than maxCost \\$\\d+\\.\\d+: ${left} documents? not extracted yet; what is done is saved — submit the same job again to go on, with a higher maxCost if needed$`)));

    const resumed = await job(request);
    expect(resumed.result).toMatchObject({ done: left, unchanged: 8 - left, budget_reached: false });
    expect((await call<{ total: number }>('/records?table=hotels_budget')).body.total).toBe(8);
  }, 60_000);

  it('refuses maxCost for a model without a price before any job, with the fix as data', async () => {
    const unpriced = await startApp('unpriced', { ...settings(), SRAG_EXTRACT_MODEL: 'house-model-7b' });
    const refused = await call<ErrorBody>('/ingest', { paths: ['hotels'], schema: 'schema.json', maxCost: 1 }, unpriced.app);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: 'INPUT_INVALID',
      message: 'a spending limit needs the price of model "house-model-7b", which srag does not know',
      hint: 'start srag serve with SRAG_PRICES naming a JSON file of prices that holds {"house-model-7b": {"input": …, "cached_input": …, "output": …}} in USD per million tokens, or leave out "maxCost"',
      fix: { kind: 'price-model', model: 'house-model-7b' },
    });
    expect(unpriced.jobs.list()).toHaveLength(0);
    // A dry run counts tokens without a price.
    const estimate = await call<Estimate>('/ingest', { paths: ['hotels'], schema: 'schema.json', maxCost: 1, dryRun: true }, unpriced.app);
    expect(estimate.status).toBe(200);
    expect(estimate.body).toMatchObject({ documents: 4, cost_usd: null });
  });

  it('sends a job\'s requests through the Batch API: it ends once they are submitted, and the same job again collects them once the batch is done', async () => {
    const request = { paths: ['batch'], schema: 'schema.json', table: 'hotels_batch', batchApi: true };
    const ordinary = (await call<Estimate>('/ingest', { ...request, batchApi: false, dryRun: true })).body;
    const viaBatch = (await call<Estimate>('/ingest', { ...request, dryRun: true })).body;
    expect(viaBatch.prompt_tokens).toBe(ordinary.prompt_tokens);
    expect(viaBatch.cost_usd).toBeCloseTo(ordinary.cost_usd! / 2, 10);

    standIn.reset();
    const submitted = await job(request);
    expect(submitted.result).toMatchObject({ done: 0, batch_api: { waiting: 3, submitted: [expect.stringMatching(/^batch-stand-in-\d+$/)], open: [] } });
    const [batchId] = submitted.result!.batch_api!.submitted;
    expect(submitted.warnings).toContain(`submitted batch ${batchId}; submit the same job again once the Batch API has answered (within 24 hours) to collect the results`);
    // Nothing was asked directly: the requests wait in the batch's input file.
    expect(standIn.requests).toHaveLength(0);

    // The stand-in's batch is still in progress at the first look.
    const waiting = await job(request);
    expect(waiting.result).toMatchObject({ done: 0, batch_api: { waiting: 3, submitted: [], open: [batchId] } });
    expect(waiting.warnings).toContainEqual(expect.stringMatching(new RegExp(`^batch ${batchId}: in_progress, 0 of \\d+ requests? answered`)));
    expect(waiting.warnings).toContain(`waiting for batch ${batchId}; submit the same job again once the Batch API has answered (within 24 hours) to collect the results`);

    const collected = await job(request);
    expect(collected.result).toMatchObject({ done: 3, failed: 0, from_cache: 3, calls: 0 });
    expect(collected.result!.batch_api!.collected_replies).toBeGreaterThan(0);
    expect(extractionRequests().length).toBeGreaterThan(0);
    expect(extractionRequests().every((extraction) => extraction.viaBatch)).toBe(true);
    expect(standIn.batchIds().filter((id) => id === batchId)).toHaveLength(1);
    expect((await call<{ total: number }>('/records?table=hotels_batch')).body.total).toBe(3);
  }, 60_000);

  it('reads a templated corpus with synthesized extractors, says which attributes code read in the result, and refuses them with batchApi', async () => {
    const request = { paths: ['cars/docs'], schema: carListingSchema, table: 'cars', synthesize: true };
    const refused = await call<ErrorBody>('/ingest', { ...request, batchApi: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'INPUT_INVALID', message: expect.stringContaining('the Batch API and synthesized extractors cannot be combined') });

    standIn.reset();
    const ended = await job(request);
    expect(ended.result).toMatchObject({ done: 16, failed: 0, synthesis: { mode: 'synthesized' } });
    const { extractors, valuesFromCode } = ended.result!.synthesis!;
    expect(extractors.filter((extractor) => extractor.status === 'accepted').length).toBeGreaterThan(0);
    const fromCode = Object.values(valuesFromCode).reduce((sum, count) => sum + count, 0);
    expect(fromCode).toBeGreaterThan(0);
    // Code read what the accepted extractors read: the model was asked for fewer values than 16 documents hold.
    const asked = requestedAttributesPerDocument(standIn.requests).reduce((sum, attributes) => sum + attributes.length, 0);
    expect(asked).toBeLessThan(16 * Object.keys(carListingSchema.properties).length);
  }, 90_000);
});
