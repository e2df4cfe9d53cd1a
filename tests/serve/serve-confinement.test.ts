import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SragError } from '../../core/index.ts';
import { canonicalPath } from '../../node/runtime/canonical-path.ts';
import { openSession, type Session } from '../../node/session/open-session.ts';
import { sragOver } from '../../node/session/open-srag.ts';
import { createServeApp } from '../../node/serve/create-serve-app.ts';
import { IngestJobs } from '../../node/serve/ingest-jobs.ts';
import { ServedFolders } from '../../node/serve/served-folders.ts';
import { startServe } from '../../node/serve/start-serve.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { documentMarkers } from '../helpers/llm-stand-in/respond-extract-record.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// Issue 42, items 1 and 2: `srag serve` returned the text of any file on the host. The app runs in
// this process (`app.request`); the served folder is a temporary one, with a folder beside it
// that holds what must never come out: a secret document, a file that is not JSON and one whose
// keys are secrets.

interface ErrorBody { error: { code: string; message: string; hint?: string } }
interface JobBody { id: string; status: string; progress: { total: number; failed: number }; result?: { summary: { done: number; failed: number } }; error?: ErrorBody['error'] }

const secret = 'TOP-SECRET-7f3a';
let standIn: LlmStandIn;
let session: Session;
let app: ReturnType<typeof createServeApp>;
const abort = new AbortController();
const base = canonicalPath(mkdtempSync(join(tmpdir(), 'srag-serve-confinement-')));
const served = join(base, 'served');
const outside = join(base, 'outside');

async function call<T = Record<string, unknown>>(path: string, json?: unknown): Promise<{ status: number; body: T }> {
  const response = await app.request(path, json === undefined
    ? { headers: { host: '127.0.0.1' } }
    : { method: 'POST', headers: { host: '127.0.0.1', 'content-type': 'application/json' }, body: JSON.stringify(json) });
  return { status: response.status, body: await response.json() as T };
}

async function finished(id: string): Promise<JobBody> {
  await jobs().idle();
  return (await call<JobBody>(`/jobs/${id}`)).body;
}

let ingestJobs: IngestJobs;
const jobs = () => ingestJobs;

beforeAll(async () => {
  mkdirSync(join(served, 'docs'), { recursive: true });
  mkdirSync(outside);
  copyFileSync(join(repositoryRoot, 'examples/hotels/docs/amber-arch-hotel.md'), join(served, 'docs/amber-arch-hotel.md'));
  copyFileSync(join(repositoryRoot, 'examples/hotels/schema.json'), join(served, 'schema.json'));
  // A document every model call fails on: it is logged as failed, and its text must not be served.
  writeFileSync(join(served, 'docs/failing.md'), `${documentMarkers.alwaysServerError}\nThe failing page holds ${secret}.\n`);
  writeFileSync(join(outside, 'secret.md'), `# Secret hotel\n${secret}\n`);
  writeFileSync(join(outside, 'shadow.json'), 'root:*:20200:0:99999:7:::\n');
  writeFileSync(join(outside, 'keys.json'), JSON.stringify({ AWS_SECRET_ACCESS_KEY: secret }));
  writeFileSync(join(served, 'not-a-schema.json'), `root:${secret}:20200:0:99999:7:::\n`);
  writeFileSync(join(served, 'keys.json'), JSON.stringify({ [`KEY_${secret}`]: 'x', type: 'object' }));
  symlinkSync(join(outside, 'secret.md'), join(served, 'docs-link-to-secret.md'));
  symlinkSync(join(outside, 'no-such-file.md'), join(served, 'dangling.md'));
  symlinkSync(outside, join(served, 'outside-folder'));
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  session = await openSession(join(base, 'serve.duckdb'), {
    abortSignal: abort.signal,
    environment: { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_MAX_RETRIES: '0' },
  });
  ingestJobs = await IngestJobs.open(session, abort.signal, ServedFolders.open([], served));
  app = createServeApp({ srag: sragOver(session), jobs: ingestJobs });
}, 60_000);
afterAll(async () => {
  abort.abort();
  await ingestJobs?.idle().catch(() => undefined);
  session?.close();
  await standIn?.close();
  rmSync(base, { recursive: true, force: true });
});

describe('srag serve reads only the folder it serves', () => {
  it('refuses a path outside the folder, by absolute path, .., a symbolic link or a glob, with one refusal whether or not the file exists', async () => {
    const refused = [
      join(outside, 'secret.md'),
      join(outside, 'no-such-file.md'),
      '../outside/secret.md',
      '../outside/no-such-file.md',
      'docs/../../outside/secret.md',
      'docs-link-to-secret.md',
      'dangling.md',
      'outside-folder/secret.md',
      'outside-folder/no-such-file.md',
      'outside-folder',
      `${outside}/*.md`,
      '../outside/*.md',
      'docs/*/../../../outside/*.md',
      '{..,docs}/outside/*.md',
      '/etc/passwd',
    ];
    const messages = new Set<string>();
    for (const path of refused) {
      const { status, body } = await call<ErrorBody>('/ingest', { paths: [path], schema: 'schema.json' });
      expect(status, path).toBe(400);
      expect(body.error.code, path).toBe('INPUT_INVALID');
      expect(body.error.message, path).not.toMatch(/\n/);
      expect(body.error.hint, path).toContain('--allow-path');
      messages.add(body.error.message.replace(JSON.stringify(path), '"PATH"'));
    }
    // Existing or not, file or folder, link or not: the same words, so the answer is no existence test.
    expect([...messages]).toEqual([`the path "PATH" is outside the folder srag serve reads (${served})`]);
    expect(standIn.requests).toHaveLength(0);
    expect(jobs().list()).toHaveLength(0);
  });

  it('leaves out the matches of a glob that a link leads out of the folder, as if they were not there', async () => {
    const accepted = await call<JobBody>('/ingest', { paths: ['**/*.md'], schema: 'schema.json', table: 'globbed' });
    expect(accepted.status).toBe(202);
    const job = await finished(accepted.body.id);
    // amber-arch-hotel.md and failing.md; neither the linked secret nor the linked folder's file.
    expect(job.progress.total).toBe(2);
    expect(standIn.requests.some((request) => JSON.stringify(request.body).includes('Secret hotel'))).toBe(false);
    const nothingInside = await call<ErrorBody>('/ingest', { paths: ['outside-folder/*.md'], schema: 'schema.json' });
    expect(nothingInside.status).toBe(400);
    expect(nothingInside.body.error).toMatchObject({ code: 'NO_DOCUMENTS', message: `no files match "${join(served, 'outside-folder/*.md')}"` });
  });

  it('reads a schema path only inside the folder, and never quotes a file that is not a schema', async () => {
    const outsideRefusals = new Set<string>();
    for (const path of [join(outside, 'shadow.json'), join(outside, 'keys.json'), join(outside, 'no-such.json'), '/proc/self/environ', '../outside/shadow.json']) {
      const { status, body } = await call<ErrorBody>('/ingest', { paths: ['docs'], schema: path });
      expect(status, path).toBe(400);
      expect(JSON.stringify(body), path).not.toMatch(/root|TOP-SECRET|AWS/);
      outsideRefusals.add(body.error.message.replace(JSON.stringify(path), '"PATH"'));
    }
    expect([...outsideRefusals]).toEqual([`the schema file "PATH" is outside the folder srag serve reads (${served})`]);

    const notJson = await call<ErrorBody>('/ingest', { paths: ['docs'], schema: 'not-a-schema.json' });
    expect(notJson.status).toBe(400);
    expect(notJson.body.error).toEqual({
      code: 'SCHEMA_INVALID',
      message: 'the schema file not-a-schema.json is not JSON; a file read on the server is not quoted back',
      hint: 'send the schema itself as "schema" to have each problem named, or check the file with srag ingest --dry-run on the server',
    });
    const keys = await call<ErrorBody>('/ingest', { paths: ['docs'], schema: 'keys.json' });
    expect(keys.status).toBe(400);
    expect(keys.body.error.code).toBe('SCHEMA_INVALID');
    expect(keys.body.error.message).toMatch(/^the schema file keys\.json is not a valid srag schema \(\d+ problems?\); a file read on the server is not quoted back$/);
    expect(JSON.stringify(keys.body)).not.toContain('KEY_');
  });

  it('serves the text, records and evidence of extracted documents only: a failed one shows nothing, nor one changed since', async () => {
    const accepted = await call<JobBody>('/ingest', { paths: ['docs'], schema: 'schema.json', table: 'hotels' });
    expect(accepted.status).toBe(202);
    const job = await finished(accepted.body.id);
    expect(job.result?.summary).toMatchObject({ done: 1, failed: 1 });
    const amber = join(served, 'docs/amber-arch-hotel.md');
    const failing = join(served, 'docs/failing.md');

    const shown = await call<{ text: string }>(`/document?table=hotels&source=${encodeURIComponent(amber)}`);
    expect(shown.status).toBe(200);
    expect(shown.body.text).toContain('Amber Arch');

    const failed = await call<ErrorBody>(`/document?table=hotels&source=${encodeURIComponent(failing)}`);
    expect(failed.status).toBe(404);
    expect(JSON.stringify(failed.body)).not.toContain(secret);

    const records = await call<{ total: number; rows: unknown[][] }>('/records?table=hotels');
    expect(records.body.total).toBe(1);
    expect(records.body.rows.map((row) => row.at(-1))).toEqual([amber]);

    const why = await call<{ source: string }>('/why?table=hotels&document=amber-arch-hotel.md&attribute=price_per_night');
    expect(why.status).toBe(200);
    expect(why.body.source).toBe(amber);
    const whyFailed = await call<ErrorBody>('/why?table=hotels&document=failing.md&attribute=price_per_night');
    expect(whyFailed.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(whyFailed.body)).not.toContain(secret);

    // The extracted file replaced by a link to the secret: its text is no longer what the model read.
    rmSync(amber);
    symlinkSync(join(outside, 'secret.md'), amber);
    try {
      const swapped = await call<ErrorBody>(`/document?table=hotels&source=${encodeURIComponent(amber)}`);
      expect(swapped.status).toBe(404);
      expect(JSON.stringify(swapped.body)).not.toContain(secret);
    } finally {
      rmSync(amber);
      copyFileSync(join(repositoryRoot, 'examples/hotels/docs/amber-arch-hotel.md'), amber);
    }

    // Extracted once, then failed when it changed: its row and evidence stay, but nothing of it is served.
    writeFileSync(amber, `${documentMarkers.alwaysServerError}\nThe changed page holds ${secret}.\n`);
    const again = await finished((await call<JobBody>('/ingest', { paths: ['docs'], schema: 'schema.json', table: 'hotels' })).body.id);
    expect(again.result?.summary).toMatchObject({ done: 0, failed: 1 });
    expect((await session.store.exclusive(async (connection) => (await connection.runAndReadAll('SELECT count(*) FROM hotels')).getRowsJS()))[0]![0]).toBe(1n);
    const whyChanged = await call<ErrorBody>('/why?table=hotels&document=amber-arch-hotel.md&attribute=price_per_night');
    expect(whyChanged.status).toBe(404);
    expect(whyChanged.body.error.code).toBe('NOT_FOUND');
    expect((await call<ErrorBody>(`/document?table=hotels&source=${encodeURIComponent(amber)}`)).status).toBe(404);
    expect((await call<{ total: number }>('/records?table=hotels')).body.total).toBe(0);
  });

  it('refuses a table named like one of srag\'s own before any job exists', async () => {
    const before = jobs().list().length;
    const { status, body } = await call<ErrorBody>('/ingest', { paths: ['docs'], schema: 'schema.json', table: 'srag_serve_jobs' });
    expect(status).toBe(400);
    expect(body.error).toEqual({ code: 'INPUT_INVALID', message: '"srag_serve_jobs" is a name srag keeps for its own tables', hint: 'send another "table"', fix: { kind: 'rename-table', table: 'srag_serve_jobs' } });
    expect(jobs().list()).toHaveLength(before);
  });
});

describe('the serve token', () => {
  it('is refused at start when shorter than 16 characters, with how to make one', async () => {
    const database = join(base, 'never-made.duckdb');
    for (const token of ['x', 'fifteen-chars!!']) {
      await expect(startServe({ db: database, port: 0, host: '127.0.0.1', environment: { SRAG_SERVE_TOKEN: token }, directory: served }))
        .rejects.toThrow(`SRAG_SERVE_TOKEN has ${token.length} ${token.length === 1 ? 'character' : 'characters'}; srag serve needs at least 16`);
    }
    const error = await startServe({ db: database, port: 0, host: '127.0.0.1', environment: { SRAG_SERVE_TOKEN: 'short' }, directory: served }).catch((caught: SragError) => caught);
    expect((error as SragError).hint).toBe('make a random one with: export SRAG_SERVE_TOKEN=$(openssl rand -hex 32)');
    expect(existsSync(database)).toBe(false);
  });

  it('lets through only the exact token, whatever the length of what is sent', async () => {
    const token = 'a-token-of-twenty-six-chars';
    const guarded = createServeApp({ srag: sragOver(session), jobs: jobs(), token });
    const status = async (authorization?: string) => (await guarded.request('/tables', { headers: { host: '127.0.0.1', ...(authorization === undefined ? {} : { authorization }) } })).status;
    expect(await status(`Bearer ${token}`)).toBe(200);
    for (const wrong of [undefined, '', 'Bearer', `Bearer ${token.slice(0, -1)}`, `Bearer ${token}x`, `Bearer ${token.replace('a', 'b')}`, `bearer ${token}`, token]) {
      expect(await status(wrong), String(wrong)).toBe(401);
    }
  });
});
