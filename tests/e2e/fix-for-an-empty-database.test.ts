import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SragError, openSrag } from '../../node/index.ts';
import { toolError } from '../../node/mcp/tool-error.ts';
import { httpError } from '../../node/serve/http-error.ts';
import { openSqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { caught } from '../helpers/caught.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';

// Issue 38: a fix is data, and each edge words it once. A database that holds no table used to
// answer every surface with the command line's words ("run `srag ingest …` first (or pass the right
// --db)"): an HTTP client or an assistant cannot pass --db.
const directory = mkdtempSync(join(tmpdir(), 'srag-empty-'));
const database = join(directory, 'empty.duckdb');
const environment = { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1', OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' };

beforeAll(async () => {
  // A database srag made, its one table dropped again: nothing to answer from.
  writeFileSync(join(directory, 'rates.csv'), 'currency,rate\nEUR,1.08\n');
  expect((await runSragInProcess(['import', join(directory, 'rates.csv'), '--db', database])).status).toBe(0);
  expect((await runSragInProcess(['drop', 'rates', '--db', database, '--yes'])).status).toBe(0);
});

describe('a question over a database that holds no table', () => {
  it('carries its fix as data, before any model call', async () => {
    const srag = await openSrag(database, { mustExist: true, environment });
    try {
      const error = await caught(srag.ask('How many hotels are in Spain?'));
      expect(SragError.isInstance(error) && error.code).toBe('TABLE_NOT_FOUND');
      expect((error as SragError).fix).toEqual({ kind: 'add-a-table' });
    } finally {
      srag.close();
    }
  });

  it('is worded by each edge in its own terms: the CLI\'s commands, HTTP\'s route, the SQL to write, the MCP server\'s start', async () => {
    const cli = await runSragInProcess(['ask', 'How many hotels are in Spain?', '--db', database], { environment });
    expect(cli.stderr).toBe('srag: the database holds no table to answer from — run `srag ingest <documents> --schema FILE` or `srag import data.csv` first (or pass the right --db)\n');

    const srag = await openSrag(database, { mustExist: true, environment });
    const error = await caught(srag.ask('How many hotels are in Spain?')).finally(() => srag.close());
    const http = httpError(error);
    expect(http.status).toBe(404);
    expect(http.body.error).toEqual({
      code: 'TABLE_NOT_FOUND', message: 'the database holds no table to answer from',
      hint: 'POST /ingest with "documents" and "schema" first, or start srag serve on the database you ingested into', fix: { kind: 'add-a-table' },
    });
    const mcp = toolError(error, (text) => text);
    expect(mcp.content).toEqual([{ type: 'text', text: expect.stringMatching(/^TABLE_NOT_FOUND: the database holds no table to answer from — the server's database holds no table yet: ingest documents into it first .*start srag mcp on the database you ingested into \(--db\)$/) }]);
    expect((mcp.structuredContent as { error: { fix: unknown } }).error.fix).toEqual({ kind: 'add-a-table' });

    const session = await openSqlSession(database, { environment, progress: false });
    try {
      await expect(session.run("SELECT * FROM srag_ask('How many hotels are in Spain?')")).rejects.toThrow(/holds no table to answer from — make one first: CREATE TABLE hotels AS SELECT \* FROM srag_extract\(/);
    } finally {
      await session.close();
    }
  });
});
