import { cpSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type RunningServe } from '../../node/serve/start-serve.ts';
import { readGoldQuestions, rowsMatchGold } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { extractionCallCount } from '../helpers/requested-attributes.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// One server over one database for the whole file: the hotels sample is ingested through the API
// itself, every endpoint is then called with a real HTTP client (fetch), and at the end the server
// is restarted with a token over the same file.

let standIn: LlmStandIn;
let server: RunningServe;
const database = join(mkdtempSync(join(tmpdir(), 'srag-serve-')), 'serve.duckdb');
/** A folder of documents outside the repository, served beside it (`--allow-path`). */
const movedDirectory = mkdtempSync(join(tmpdir(), 'srag-serve-moved-'));
const allowPaths = [repositoryRoot, movedDirectory];
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8', SRAG_CONFIRM_DOCUMENTS: '10' });
const questions = readGoldQuestions('examples/hotels');

interface ErrorBody { error: { code: string; message: string; hint?: string } }
interface JobBody { id: string; status: string; table: string; progress: { completed: number; total: number }; result?: { summary: { done: number; failed: number; unchanged: number } }; warnings: string[]; error?: ErrorBody['error'] }

async function call<T = Record<string, unknown>>(path: string, init: RequestInit & { json?: unknown } = {}, base = server.url): Promise<{ status: number; body: T; headers: Headers }> {
  const { json, ...rest } = init;
  const response = await fetch(`${base}${path}`, json === undefined ? rest : { method: 'POST', ...rest, headers: { 'content-type': 'application/json', ...(rest.headers ?? {}) }, body: JSON.stringify(json) });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, headers: response.headers };
}

/** One request on a connection of its own (fetch neither sets Host nor closes after a refused upload). */
function rawRequest(method: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: ErrorBody }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${server.url}${path}`, { method, headers, agent: false }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { text += chunk; });
      response.on('end', () => resolve({ status: response.statusCode!, body: JSON.parse(text) as ErrorBody }));
    });
    // The server may answer 413 and close before the whole body is sent.
    request.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    request.end(body);
  });
}

/** Reads a job's server-sent events until it ends; returns every job state sent. */
async function followEvents(id: string, headers: Record<string, string> = {}): Promise<JobBody[]> {
  const response = await fetch(`${server.url}/jobs/${id}/events`, { headers });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await response.text();
  return text.split('\n\n').filter((message) => message.includes('data:')).map((message) => {
    expect(message).toMatch(/^event: job$/m);
    return JSON.parse(message.split('\n').find((line) => line.startsWith('data:'))!.slice(5)) as JobBody;
  });
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels', 'examples/worldcup'] });
  server = await startServe({ db: database, port: 0, host: '127.0.0.1', environment: environment(), directory: repositoryRoot, allowPaths });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await standIn?.close();
});

describe('srag serve', () => {
  it('ingests the hotels sample as a job: accepted at once, progress as server-sent events, the summary when done', async () => {
    const accepted = await call<JobBody>('/ingest', { json: { paths: ['examples/hotels/docs'], schema: 'examples/hotels/schema.json' } });
    expect(accepted.status).toBe(202);
    expect(accepted.headers.get('location')).toBe(`/jobs/${accepted.body.id}`);
    expect(['queued', 'running']).toContain(accepted.body.status);
    const events = await followEvents(accepted.body.id);
    const last = events.at(-1)!;
    expect(last.status, JSON.stringify(last.error)).toBe('done');
    expect(last.result!.summary).toMatchObject({ done: 50, failed: 0 });
    expect(events.some((event) => event.status === 'running' && event.progress.completed > 0 && event.progress.completed < 50)).toBe(true);
    const job = await call<JobBody>(`/jobs/${accepted.body.id}`);
    expect(job.body).toMatchObject({ status: 'done', table: 'hotels', progress: { completed: 50, total: 50 } });
  }, 60_000);

  it('an ingest job follows a renamed document with its record, says in its warnings which document is gone, and removes its record with prune: true', async () => {
    const directory = movedDirectory;
    for (const page of ['amber-arch-hotel.md', 'amber-lantern-hotel.html', 'crystal-arch-suites.txt']) cpSync(join(repositoryRoot, 'examples/hotels/docs', page), join(directory, page));
    const job = async (prune?: boolean) => {
      const accepted = await call<JobBody>('/ingest', { json: { paths: [directory], schema: 'examples/hotels/schema.json', table: 'hotels_moved', ...(prune === undefined ? {} : { prune }) } });
      expect(accepted.status).toBe(202);
      const last = (await followEvents(accepted.body.id)).at(-1)!;
      expect(last.status, JSON.stringify(last.error)).toBe('done');
      return last;
    };
    expect((await job()).result!.summary).toMatchObject({ done: 3 });
    renameSync(join(directory, 'amber-arch-hotel.md'), join(directory, 'arch.md'));
    rmSync(join(directory, 'crystal-arch-suites.txt'));
    standIn.reset();
    const again = await job();
    expect(again.result!.summary).toMatchObject({ done: 0, unchanged: 2 });
    expect(standIn.requests).toHaveLength(0);
    expect(again.warnings).toEqual([
      `moved: 1 record of hotels_moved follows its document to its new path instead of being extracted again (${join(directory, 'arch.md')}, was ${join(directory, 'amber-arch-hotel.md')})`,
      `note: 1 document of hotels_moved is gone from its path (${join(directory, 'crystal-arch-suites.txt')}): its record stays in the table and answers count it — submit the job again with prune: true to remove it (a moved file keeps its record when srag ingest is given its new path)`,
    ]);
    const pruned = await job(true);
    expect(pruned.warnings).toEqual([`pruned: removed the records of 1 document of hotels_moved gone from its path (${join(directory, 'crystal-arch-suites.txt')})`]);
    const records = await call<{ total: number }>('/records?table=hotels_moved');
    expect(records.body.total).toBe(2);
  }, 60_000);

  it('answers every sample question from the SQL the gold data expects', async () => {
    for (const question of questions) {
      const { status, body } = await call<{ answer: string; sql: string; rows: unknown[][] }>('/query', { json: { question: question.question } });
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.sql).toBe(question.sql);
      expect(rowsMatchGold(body.rows as never, question.gold), question.question).toBe(true);
    }
  }, 60_000);

  it('answers queries correctly while an ingest of another table runs', async () => {
    const accepted = await call<JobBody>('/ingest', { json: { paths: ['examples/worldcup/docs'], schema: 'examples/worldcup/schema.json' } });
    expect(accepted.status).toBe(202);
    const asked = questions.slice(0, 6);
    const results = await Promise.all(asked.map((question) => call<{ rows: unknown[][] }>('/query', { json: { question: question.question, table: 'hotels' } })));
    results.forEach((result, index) => {
      expect(result.status).toBe(200);
      expect(rowsMatchGold(result.body.rows as never, asked[index]!.gold)).toBe(true);
    });
    const events = await followEvents(accepted.body.id);
    expect(events.at(-1)!.status, JSON.stringify(events.at(-1))).toBe('done');
  }, 60_000);

  it('shows the schema, the statistics as srag stats --json, and a value\'s evidence as srag why', async () => {
    const schema = await call<{ table: string; attributes: Array<{ name: string }>; jsonSchema: { properties: Record<string, unknown> } }>('/schema?table=hotels');
    expect(schema.status).toBe(200);
    expect(schema.body.attributes.map((attribute) => attribute.name)).toContain('price_per_night');
    expect(Object.keys(schema.body.jsonSchema.properties)).toContain('price_per_night');

    const stats = await call<{ table: string; rows: number; log: Record<string, number>; statistics: unknown[] }>('/stats?table=hotels');
    expect(stats.status).toBe(200);
    expect(stats.body).toMatchObject({ table: 'hotels', rows: 50, log: { done: 50 } });
    expect(Object.keys(stats.body)).toEqual(['table', 'rows', 'rowsWithoutValues', 'log', 'statistics']);

    const why = await call<{ source: string; value: string; quote: string; status: string; raw: string }>('/why?table=hotels&document=amber-arch-hotel.md&attribute=price_per_night');
    expect(why.status).toBe(200);
    expect(why.body.source).toBe(join(repositoryRoot, 'examples/hotels/docs/amber-arch-hotel.md'));
    expect(why.body.quote).toBeTruthy();
    expect(why.body.quote).toContain(String(Math.trunc(Number(why.body.value))));
  });

  it('pages through the records and serves a logged document with its quote located, and no other file', async () => {
    const records = await call<{ columns: string[]; rows: unknown[][]; total: number; labels: string[] }>('/records?table=hotels&limit=5&offset=2');
    expect(records.status).toBe(200);
    expect(records.body.total).toBe(50);
    expect(records.body.rows).toHaveLength(5);
    expect(records.body.columns.at(-1)).toBe('_source');
    expect(records.body.labels[0]).toMatch(/^examples\/hotels\/docs\/|\.md$/);

    const source = join(repositoryRoot, 'examples/hotels/docs/amber-arch-hotel.md');
    const why = await call<{ quote: string }>(`/why?table=hotels&document=${encodeURIComponent(source)}&attribute=price_per_night`);
    const shown = await call<{ text: string; spans: Array<{ start: number; end: number }> }>(`/document?table=hotels&source=${encodeURIComponent(source)}&quote=${encodeURIComponent(why.body.quote)}`);
    expect(shown.status).toBe(200);
    expect(shown.body.spans.length).toBeGreaterThan(0);
    const highlighted = shown.body.text.slice(shown.body.spans[0]!.start, shown.body.spans.at(-1)!.end).toLowerCase().replace(/\W+/g, ' ');
    expect(highlighted).toContain(why.body.quote.toLowerCase().replace(/\W+/g, ' ').trim().split(' ')[0]);

    const refused = await call<ErrorBody>(`/document?table=hotels&source=${encodeURIComponent('/etc/passwd')}`);
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('NOT_FOUND');
  });

  it('answers bad requests with {error: {code, message, hint}} and the status of the CLI\'s code', async () => {
    const unknownTable = await call<ErrorBody>('/query', { json: { question: 'How many hotels?', table: 'nope' } });
    expect(unknownTable.status).toBe(404);
    expect(unknownTable.body.error).toMatchObject({ code: 'TABLE_NOT_FOUND', message: expect.stringContaining('"nope"'), hint: expect.stringContaining('hotels') });

    const severalTables = await call<ErrorBody>('/stats');
    expect(severalTables.status).toBe(404);
    expect(severalTables.body.error.hint).toMatch(/hotels/);

    const missingQuestion = await call<ErrorBody>('/query', { json: { table: 'hotels' } });
    expect(missingQuestion.status).toBe(400);
    expect(missingQuestion.body.error).toMatchObject({ code: 'INPUT_INVALID', message: expect.stringContaining('question') });

    const notJson = await call<ErrorBody>('/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"question": ' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.code).toBe('INPUT_INVALID');

    const badSchema = await call<ErrorBody>('/ingest', { json: { paths: ['examples/hotels/docs'], schema: { title: 'x', type: 'object', properties: { a: { type: 'array' } } } } });
    expect(badSchema.status).toBe(400);
    expect(badSchema.body.error.code).toBe('SCHEMA_INVALID');

    const noDocuments = await call<ErrorBody>('/ingest', { json: { paths: ['examples/no-such-folder'], schema: 'examples/hotels/schema.json' } });
    expect(noDocuments.status).toBe(400);
    expect(noDocuments.body.error.code).toBe('NO_DOCUMENTS');

    const refusedByModel = await call<ErrorBody>('/query', { json: { question: 'Which hotel has the friendliest cat?', table: 'hotels' } });
    expect(refusedByModel.status).toBeGreaterThanOrEqual(400);
    expect(refusedByModel.body.error.code).toMatch(/^(LLM_REQUEST_FAILED|MODEL_OUTPUT_INVALID|SQL_REJECTED|SQL_FAILED)$/);
    expect(JSON.stringify(refusedByModel.body)).not.toContain('sk-test-not-a-real-key');

    const noRoute = await call<ErrorBody>('/nothing-here');
    expect(noRoute.status).toBe(404);
    expect(noRoute.body.error.code).toBe('NOT_FOUND');

    const noJob = await call<ErrorBody>('/jobs/unknown');
    expect(noJob.status).toBe(404);

    const tooLarge = await rawRequest('POST', '/query', { 'content-type': 'application/json' }, JSON.stringify({ question: 'x'.repeat(2_000_000) }));
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body.error.code).toBe('PAYLOAD_TOO_LARGE');

    // A page on another site that rebinds its name to 127.0.0.1 still sends its own Host.
    const rebound = await rawRequest('GET', '/tables', { host: 'attacker.example:8080' });
    expect(rebound.status).toBe(401);
    expect(rebound.body.error.message).toContain('attacker.example');
  });

  it('describes every endpoint in /openapi.json', async () => {
    const { status, body } = await call<{ openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> }>('/openapi.json');
    expect(status).toBe(200);
    expect(Object.keys(body.paths).sort()).toEqual(['/document', '/ingest', '/jobs', '/jobs/{id}', '/jobs/{id}/events', '/query', '/records', '/schema', '/stats', '/tables', '/why']);
    expect(JSON.stringify(body.paths['/query']!.post!.requestBody)).toContain('question');
  });

  it('adds the attributes a question needs with extend_schema: true, back-filling without asking however many documents, and a second question costs no extraction', async () => {
    const schema = JSON.parse(readFileSync(join(repositoryRoot, 'examples/hotels/schema.json'), 'utf8')) as { properties: Record<string, unknown> };
    delete schema.properties.has_airport_shuttle;
    const accepted = await call<JobBody>('/ingest', { json: { paths: ['examples/hotels/docs'], schema, table: 'hotels_lean' } });
    expect((await followEvents(accepted.body.id)).at(-1)!.status).toBe('done');
    const question = questions.find((entry) => entry.sql.includes('has_airport_shuttle'))!;
    const refused = await call<ErrorBody>('/query', { json: { question: question.question, table: 'hotels_lean' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error).toMatchObject({ code: 'ATTRIBUTES_MISSING', message: expect.stringContaining('has_airport_shuttle'), hint: expect.stringContaining('"extend_schema": true') });
    standIn.reset();
    // SRAG_CONFIRM_DOCUMENTS is 10 here: a terminal would be asked about these 50 documents, a server goes ahead and reports the estimate.
    const extended = await call<{ rows: unknown[][]; added_attributes: string[]; extraction_usage: { calls: number; documents: number }; backfill_estimate: { documents: number } }>(
      '/query', { json: { question: question.question, table: 'hotels_lean', extend_schema: true } });
    expect(extended.status, JSON.stringify(extended.body)).toBe(200);
    expect(rowsMatchGold(extended.body.rows as never, question.gold)).toBe(true);
    expect(extended.body).toMatchObject({ added_attributes: ['has_airport_shuttle'], extraction_usage: { documents: 50 }, backfill_estimate: { documents: 50 } });
    expect(extended.body.extraction_usage.calls).toBe(extractionCallCount(standIn.requests));
    expect(extended.body.extraction_usage.calls).toBeGreaterThan(0);
    standIn.reset();
    const again = await call<{ rows: unknown[][]; added_attributes: string[]; extraction_usage: { calls: number } }>('/query', { json: { question: question.question, table: 'hotels_lean', extend_schema: true } });
    expect(again.body).toMatchObject({ added_attributes: [], extraction_usage: { calls: 0 } });
    expect(extractionCallCount(standIn.requests)).toBe(0);
  }, 60_000);

  it('serves the web page without a token', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script src="/app.js"');
  });

  it('resumes an unfinished ingest job after a restart, and with a token refuses requests without it', async () => {
    // A job accepted just before the server stops is left unfinished; the next start runs it again.
    const accepted = await call<JobBody>('/ingest', { json: { paths: ['examples/hotels/docs'], schema: 'examples/hotels/schema.json', table: 'hotels_again' } });
    expect(accepted.status).toBe(202);
    await server.close();

    // With the server stopped the CLI may open the file: its answers are the ones the server gives.
    const cli = await runSragInProcess(['ask', ...questions.map((question) => question.question), '--db', database, '--table', 'hotels', '--json'], { environment: environment() });
    expect(cli.status, cli.stderr).toBe(0);
    const cliAnswers = cli.stdout.trim().split('\n').map((line) => JSON.parse(line) as unknown);

    await expect(startServe({ db: database, port: 0, host: '0.0.0.0', environment: environment() })).rejects.toThrow(/only with a token/);

    const token = 'serve-test-token-0123456789';
    server = await startServe({ db: database, port: 0, host: '127.0.0.1', environment: { ...environment(), SRAG_SERVE_TOKEN: token }, directory: repositoryRoot, allowPaths });
    expect(['queued', 'running']).toContain(server.jobs.get(accepted.body.id)?.status);
    const denied = await call<ErrorBody>('/tables');
    expect(denied.status).toBe(401);
    expect(denied.headers.get('www-authenticate')).toBe('Bearer');
    expect(denied.body.error).toMatchObject({ code: 'UNAUTHORIZED', hint: expect.stringContaining('Authorization: Bearer') });
    expect((await call('/tables', { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${server.url}/`)).status).toBe(200);

    const authorization = { authorization: `Bearer ${token}` };
    const events = await followEvents(accepted.body.id, authorization);
    const last = events.at(-1)!;
    expect(last.status, JSON.stringify(last.error)).toBe('done');
    // Every reply was already cached from the first ingest: the rerun adds each document once.
    const stats = await call<{ rows: number }>('/stats?table=hotels_again', { headers: authorization });
    expect(stats.body.rows).toBe(50);
    for (const [index, question] of questions.entries()) {
      const answer = await call('/query', { json: { question: question.question, table: 'hotels' }, headers: authorization });
      expect(answer.body, question.question).toEqual(cliAnswers[index]);
    }
    // A wait, not a timing: the CLI's twenty questions in a process of their own take over 40 s on a loaded machine.
  }, 150_000);
});
