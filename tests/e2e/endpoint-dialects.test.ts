import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { askCommand } from '../../node/cli/ask-command.ts';
import { evalCommand } from '../../node/cli/eval-command.ts';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { openSqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { startServe } from '../../node/serve/start-serve.ts';
import { dialectMarkers, geminiInvalidKey, startLlmStandIn, type Dialect, type LlmStandIn, type RecordedRequest } from '../helpers/llm-stand-in/index.ts';
import { queryDatabaseFile } from '../helpers/query-database-file.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// srag ingest, ask, eval, serve and the SQL functions against each provider the stand-in speaks
// (its `dialect`: each provider's refusals, error and reply shapes, with the sources quoted in
// tests/helpers/llm-stand-in/dialects/). All in this process, over three hotel pages and, where the
// provider refuses a document for its content, a fourth that it refuses: one stand-in per dialect.

const hotels = join(repositoryRoot, 'examples/hotels');
const schema = join(hotels, 'schema.json');
const pages = ['amber-arch-hotel.md', 'amber-harbour-boutique-hotel.html', 'amber-lantern-hotel.html'];
const question = 'How many hotels are in Spain?';
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-dialects-'));
const key = 'sk-test-not-a-real-key-0000';

interface DialectCase {
  dialect: Dialect;
  /** The settings a user of this provider sets, `url` the stand-in's base URL. */
  settings: (url: string) => Record<string, string>;
  /** A document the provider refuses for its content (the marker), with the words it refuses it in; the other three are done. */
  refusedDocument?: { marker: string; words: RegExp };
  /** A document the provider fails once and then answers (OpenRouter's 200 with an error): retried, and done. */
  retriedDocument?: string;
  /** Requests the endpoint refused for a parameter before srag adapted, in the first ingest; none after, the adaptation kept in the database. */
  refusedParameters: number;
  /** A reasoning model: the summary counts its reasoning tokens. */
  reasoning?: true;
}

const cases: DialectCase[] = [
  { dialect: 'openai', settings: (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: key, SRAG_MODEL: 'gpt-4o-mini', SRAG_REASONING_EFFORT: 'low' }), refusedDocument: { marker: dialectMarkers.refusal, words: /the model refused: I'm sorry/ }, refusedParameters: 0 },
  { dialect: 'openai-reasoning', settings: (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: key, SRAG_MODEL: 'gpt-5-mini', SRAG_REASONING_EFFORT: 'low', SRAG_MAX_OUTPUT_TOKENS: '20000' }), refusedDocument: { marker: dialectMarkers.tooLong, words: /maximum context length/ }, refusedParameters: 0, reasoning: true },
  {
    dialect: 'azure',
    // The resource's endpoint and key as the openai SDK's AzureOpenAI reads them; the deployment's name says nothing of its reasoning model.
    settings: (url) => ({ AZURE_OPENAI_ENDPOINT: url.replace(/\/openai\/v1$/, ''), AZURE_OPENAI_API_KEY: 'azure-key-0000', SRAG_MODEL: 'reasoning-deployment', SRAG_MAX_OUTPUT_TOKENS: '20000' }),
    refusedDocument: { marker: dialectMarkers.contentFilter, words: /content management policy/ },
    refusedParameters: 2,
    reasoning: true,
  },
  { dialect: 'ollama', settings: (url) => ({ OPENAI_BASE_URL: url, SRAG_MODEL: 'llama3.1' }), refusedParameters: 0 },
  { dialect: 'vllm', settings: (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: key, SRAG_MODEL: 'srag-stand-in' }), refusedDocument: { marker: dialectMarkers.tooLong, words: /maximum context length is 8192 tokens/ }, refusedParameters: 0 },
  { dialect: 'llama-cpp', settings: (url) => ({ OPENAI_BASE_URL: url }), refusedDocument: { marker: dialectMarkers.tooLong, words: /exceeds the available context size/ }, refusedParameters: 0 },
  { dialect: 'lm-studio', settings: (url) => ({ OPENAI_BASE_URL: url, SRAG_MODEL: 'qwen2.5-7b-instruct' }), refusedParameters: 0 },
  { dialect: 'gemini-openai', settings: (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: 'AIza-test-key-0000', SRAG_MODEL: 'gemini-2.5-flash' }), refusedParameters: 0 },
  { dialect: 'anthropic-openai', settings: (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: key, SRAG_MODEL: 'claude-sonnet-4-5' }), refusedParameters: 0 },
  { dialect: 'openrouter', settings: (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: key, SRAG_MODEL: 'openai/gpt-5-mini', SRAG_REASONING_EFFORT: 'low' }), retriedDocument: dialectMarkers.providerError, refusedParameters: 0 },
];

/** The three pages, and a fourth carrying `marker` (after them in name order). */
function corpus(name: string, marker?: string): string {
  const directory = join(workDirectory, name, 'docs');
  mkdirSync(directory, { recursive: true });
  for (const page of pages) copyFileSync(join(hotels, 'docs', page), join(directory, page));
  if (marker) writeFileSync(join(directory, 'zz-azure-residence-hotel.html'), `${readFileSync(join(hotels, 'docs', 'azure-residence-hotel.html'), 'utf8')}\n<p>${marker}</p>\n`);
  return directory;
}

/** Requests refused for a parameter: a 4xx that no document's content asked for. */
function parameterRefusals(requests: RecordedRequest[], marker?: string): number {
  return requests.filter((request) => request.status >= 400 && request.status < 500 && !(marker && JSON.stringify(request.body).includes(marker))).length;
}

function useSettings(settings: Record<string, string>): void {
  vi.unstubAllEnvs();
  for (const name of Object.keys(process.env)) if (name.startsWith('OPENAI_') || name.startsWith('SRAG_') || name.startsWith('AZURE_OPENAI_')) vi.stubEnv(name, '');
  for (const [name, value] of Object.entries({ SRAG_CONCURRENCY: '4', SRAG_MAX_RETRIES: '1', ...settings })) vi.stubEnv(name, value);
}

afterAll(() => {
  vi.unstubAllEnvs();
});

describe.each(cases)('against the $dialect dialect', ({ dialect, settings, refusedDocument, retriedDocument, refusedParameters, reasoning }) => {
  let standIn: LlmStandIn;
  const database = join(workDirectory, `${dialect}.duckdb`);
  const marker = refusedDocument?.marker ?? retriedDocument;
  let documents: string;
  let environment: Record<string, string>;

  beforeAll(async () => {
    standIn = await startLlmStandIn({ corpora: ['examples/hotels'], dialect, latencyMs: 0 });
    documents = corpus(dialect, marker);
    environment = { SRAG_CONCURRENCY: '4', SRAG_MAX_RETRIES: '1', ...settings(standIn.url) };
    useSettings(settings(standIn.url));
  });
  afterAll(async () => {
    await standIn.close();
  });

  it('srag ingest extracts the pages, failing alone a page the provider refuses for its content, adapting once to what it refuses', async () => {
    const ingested = await runCommandInProcess((signal) => ingestCommand([documents], { schema, db: database, evidence: true }, signal));
    expect(ingested.stdout).toMatch(new RegExp(`^hotels: ${refusedDocument ? 3 : marker ? 4 : 3} done, ${refusedDocument ? 1 : 0} failed`));
    expect(ingested.status, ingested.stderr).toBe(refusedDocument ? 1 : 0);
    if (refusedDocument) expect(ingested.stderr).toMatch(new RegExp(`failed: \\S*zz-azure-residence-hotel\\.html: .*${refusedDocument.words.source}`));
    expect(parameterRefusals(standIn.requests, marker)).toBe(refusedParameters);
    expect(/completion tokens \(\d+ reasoning\)/.test(ingested.stdout)).toBe(reasoning === true);
    const logged = await queryDatabaseFile(database, "SELECT status, count(*) FROM srag_ingestion_log GROUP BY status ORDER BY status");
    expect(logged).toEqual(refusedDocument ? [['done', 3n], ['failed', 1n]] : [['done', marker ? 4n : 3n]]);
  });

  it('srag ask answers over the table, with what the endpoint refused remembered from the ingest', async () => {
    standIn.reset();
    const asked = await runCommandInProcess((signal) => askCommand([question], { db: database, table: 'hotels', hybrid: false }, signal));
    expect(asked.status, asked.stderr).toBe(0);
    expect(asked.stdout).toContain("SQL: SELECT COUNT(*) FROM hotels WHERE country = 'Spain'");
    expect(parameterRefusals(standIn.requests)).toBe(0);
  });

  it('srag eval scores the answer', async () => {
    const questions = join(workDirectory, dialect, 'questions.jsonl');
    writeFileSync(questions, `${JSON.stringify({ question, answer: '0' })}\n`);
    const evaluated = await runCommandInProcess((signal) => evalCommand({
      questions, db: database, table: 'hotels', system: 'srag', judge: false, topK: 40, chunkTokens: 500, contextTokens: 100_000, documentTokens: 20_000,
      retrieval: 'bm25', tolerance: 0.001, concurrency: 1,
    }, signal));
    expect(evaluated.status, evaluated.stderr).toBe(0);
    expect(evaluated.stdout).toMatch(/1 question × 1 system/);
  });

  it('srag serve answers POST /query', async () => {
    const server = await startServe({ db: database, port: 0, host: '127.0.0.1', environment });
    try {
      const response = await fetch(`${server.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question, table: 'hotels' }) });
      const body = await response.json() as { sql?: string; error?: unknown };
      expect({ status: response.status, sql: body.sql }).toEqual({ status: 200, sql: "SELECT COUNT(*) FROM hotels WHERE country = 'Spain'" });
    } finally {
      await server.close();
    }
  });
});

describe('srag_extract and srag_ask in SQL', () => {
  // A session per dialect, one after another (each reads its endpoint from the settings it starts
  // with; sessions at once would share libuv's four threads, which a blocked DuckDB callback holds).
  it('extract the pages and answer over them against every dialect', async () => {
    const outcomes = [];
    for (const { dialect, settings, refusedParameters } of cases) {
      outcomes.push(await (async () => {
      const standIn = await startLlmStandIn({ corpora: ['examples/hotels'], dialect });
      const session = await openSqlSession(':memory:', { environment: { SRAG_CONCURRENCY: '4', SRAG_MAX_RETRIES: '1', ...settings(standIn.url) }, progress: false });
      try {
        const pattern = join(corpus(`${dialect}-sql`), '*').replace(/'/g, "''");
        await session.run(`CREATE TABLE hotels AS SELECT * FROM srag_extract('${pattern}', schema := '${schema}')`);
        const rows = (await session.run('SELECT count(*) AS rows, count(hotel_name) AS named FROM hotels')).rows;
        const sql = (await session.run(`SELECT sql FROM srag_ask('${question}', 'hotels')`)).rows;
        return { dialect, rows, sql, refused: parameterRefusals(standIn.requests) === refusedParameters };
      } finally {
        await session.close();
        await standIn.close();
      }
      })());
    }
    expect(outcomes).toEqual(cases.map(({ dialect }) => ({ dialect, rows: [[3, 3]], sql: [["SELECT COUNT(*) FROM hotels WHERE country = 'Spain'"]], refused: true })));
  });
});

describe('a setting the provider refuses stops srag ingest before it marks any document', () => {
  let standIn: LlmStandIn;
  beforeAll(async () => {
    standIn = await startLlmStandIn({ corpora: ['examples/hotels'], dialect: 'gemini-openai' });
  });
  afterAll(async () => {
    await standIn.close();
  });

  it.each([
    // Gemini answers a key it does not know with 400, not 401 (see gemini-openai-dialect.ts).
    ['a key Gemini does not take', { OPENAI_API_KEY: geminiInvalidKey, SRAG_MODEL: 'gemini-2.5-flash' }, /API key not valid/],
    ['a reasoning effort a Gemini 3 model does not take', { OPENAI_API_KEY: 'AIza-test-key-0000', SRAG_MODEL: 'gemini-3-flash-preview', SRAG_REASONING_EFFORT: 'medium' }, /Thinking level medium is not supported/],
  ])('%s: the endpoint\'s own words, two requests, no document marked; the run after the fix takes them all', async (name, wrong, words) => {
    const documents = corpus(`gemini-${name.replace(/\W+/g, '-')}`);
    const database = join(workDirectory, `gemini-${name.replace(/\W+/g, '-')}.duckdb`);
    useSettings({ OPENAI_BASE_URL: standIn.url, ...wrong });
    standIn.reset();
    // One page per request, so that each could have been refused on its own.
    const stopped = await runCommandInProcess((signal) => ingestCommand([documents], { schema, db: database, evidence: true, batchSize: 1 }, signal));
    expect(stopped.status).not.toBe(0);
    expect(stopped.stderr).toMatch(words);
    expect(stopped.stderr).toContain('refused the first requests alike, answering none');
    expect(standIn.requests.filter((request) => request.status === 400).length).toBeLessThanOrEqual(3);
    expect(await queryDatabaseFile(database, 'SELECT count(*) FROM srag_ingestion_log')).toEqual([[0n]]);

    useSettings({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'AIza-test-key-0000', SRAG_MODEL: 'gemini-2.5-flash' });
    const fixed = await runCommandInProcess((signal) => ingestCommand([documents], { schema, db: database, evidence: true, batchSize: 1 }, signal));
    expect(fixed.status, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/^hotels: 3 done, 0 failed/);
  });
});
