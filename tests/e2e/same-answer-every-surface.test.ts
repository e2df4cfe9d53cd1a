import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSrag, redactSecrets } from '../../node/index.ts';
import { createMcpServer } from '../../node/mcp/create-mcp-server.ts';
import { sragWhileCalled } from '../../node/mcp/srag-while-called.ts';
import { startServe } from '../../node/serve/start-serve.ts';
import { openSqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { readGoldQuestions, rowsMatchGold } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// Issue 38's "Done when": every surface gives the same answer, tables and coverage to the same
// question on a multi-table database, because every surface calls the one ask pipeline (app's
// `ask`). The database is the README's: hotels and World Cup ingested, cities imported. The web
// page's answers are held against the CLI's in tests/serve/serve-page-browser.test.ts.

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-surfaces-'));
const database = join(workDirectory, 'srag.duckdb');
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' });
const questions = [
  // One table among several: the page once answered it from `cities` (3 instead of 11).
  readGoldQuestions('examples/hotels').find((question) => question.question === 'How many hotels are in Spain?')!,
  // Two tables joined.
  readGoldQuestions('examples/cities').find((question) => question.question === 'How many hotels are in cities with a population over 2 million?')!,
];

/** What each surface must agree on. */
interface Agreed {
  answer: string;
  sql: string;
  tables: string[];
  rows: unknown[][];
  coverage: unknown;
}

const agreed = (answer: { answer: string; sql: string; tables: string[]; rows: unknown[][]; coverage: unknown }): Agreed =>
  ({ answer: answer.answer, sql: answer.sql, tables: answer.tables, rows: answer.rows, coverage: answer.coverage ?? null });

const byCli = new Map<string, Agreed>();

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels', 'examples/worldcup', 'examples/cities'] });
  for (const corpus of ['examples/hotels', 'examples/worldcup']) {
    const ingested = await runSragInProcess(['ingest', `${corpus}/docs`, '--schema', `${corpus}/schema.json`, '--db', database], { environment: environment() });
    expect(ingested.status, ingested.stderr).toBe(0);
  }
  const imported = await runSragInProcess(['import', 'examples/cities/cities.csv', '--db', database]);
  expect(imported.status, imported.stderr).toBe(0);
  for (const question of questions) {
    const asked = await runSragInProcess(['ask', question.question, '--db', database, '--json'], { environment: environment() });
    expect(asked.status, asked.stderr).toBe(0);
    byCli.set(question.question, agreed(JSON.parse(asked.stdout)));
  }
}, 240_000);

afterAll(async () => {
  await standIn?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('one question on every surface of a database with several tables', () => {
  it('gets the gold answer from the tables it needs on the command line', () => {
    for (const question of questions) {
      const answer = byCli.get(question.question)!;
      expect(rowsMatchGold(answer.rows as never, question.gold as never), JSON.stringify(answer)).toBe(true);
      expect([...answer.tables].sort()).toEqual(question.question.includes('population') ? ['cities', 'hotels'] : ['hotels']);
    }
  });

  it('gives the same answer, SQL, tables, rows and coverage through srag serve, srag_ask in SQL and srag mcp', async () => {
    // srag_ask in SQL, in a session of its own.
    const session = await openSqlSession(database, { environment: { ...process.env, ...environment() }, progress: false });
    try {
      for (const question of questions) {
        const { rows: [row] } = await session.run(`SELECT answer, sql, tables, result, coverage FROM srag_ask('${question.question.replace(/'/g, "''")}')`);
        const [answer, sql, tables, result, coverage] = row!;
        const objects = JSON.parse(String(result)) as Array<Record<string, unknown>>;
        expect({ answer, sql, tables: JSON.parse(String(tables)), rows: objects.map((object) => Object.values(object)), coverage: coverage === null ? null : JSON.parse(String(coverage)) }, 'srag_ask').toEqual(byCli.get(question.question));
      }
    } finally {
      await session.close();
    }

    // srag mcp's ask tool, its server in this process over the SDK's in-memory transport.
    const server = createMcpServer({ useSrag: sragWhileCalled(() => openSrag(database, { mustExist: true, environment: environment() })), redact: (text) => redactSecrets(text, []) }, { version: 'test' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'srag-surfaces-test', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      for (const question of questions) {
        const result = await client.callTool({ name: 'ask', arguments: { question: question.question } }) as unknown as { isError?: boolean; structuredContent: Parameters<typeof agreed>[0] };
        expect(result.isError, JSON.stringify(result)).toBeFalsy();
        expect(agreed(result.structuredContent), 'srag mcp').toEqual(byCli.get(question.question));
      }
    } finally {
      await client.close();
      await server.close();
    }

    // srag serve's POST /query, with no table named: it chooses tables as the CLI does.
    const served = await startServe({ db: database, port: 0, host: '127.0.0.1', environment: { ...process.env, ...environment() }, directory: repositoryRoot });
    try {
      for (const question of questions) {
        const response = await fetch(`${served.url}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ question: question.question }) });
        expect(response.status).toBe(200);
        expect(agreed(await response.json() as never), 'srag serve').toEqual(byCli.get(question.question));
      }
    } finally {
      await served.close();
    }
  });
});
