import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHotelCorpus } from '../../bench/generate-hotel-corpus.ts';
import { openSqlSession, type SqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';

// What a session's statement journals (replies, records, log entries) is applied to srag's tables
// after the statement has answered; the next statement, and closing, wait for that apply.
const documents = 200;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-session-apply-'));
let standIn: LlmStandIn;

beforeAll(async () => {
  generateHotelCorpus(workDirectory, documents);
  standIn = await startLlmStandIn({ corpora: [workDirectory] });
});
afterAll(async () => {
  await standIn.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

const open = (name: string): Promise<SqlSession> => openSqlSession(join(workDirectory, name), {
  environment: { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '16' },
  progress: false,
});

describe('a SQL session', () => {
  it('has the next statement read everything the statement before it journaled, asked at once after its answer', async () => {
    const session = await open('apply.duckdb');
    try {
      const scan = await session.run(`SELECT count(*), count(_error) FROM srag_extract('${join(workDirectory, 'docs', '*')}', schema := '${join(workDirectory, 'schema.json')}', batch_size := 1)`);
      expect(scan.rows).toEqual([[documents, 0]]);
      // Asked the moment the scan answered: the apply of its last entries (tens of ms) must be done first.
      const { rows } = await session.run(`SELECT
        (SELECT count(*) FROM srag_journal),
        (SELECT count(*) FROM srag_ingestion_log WHERE table_name LIKE 'srag_extract:%' AND status = 'done'),
        (SELECT count(*) FROM srag_cache),
        (SELECT count(DISTINCT source) FROM srag_evidence)`);
      expect(rows).toEqual([[0, documents, documents, documents]]);
    } finally {
      await session.close();
    }
  });

  it('fails the statement after an apply that cannot be done, and closing too, with the reason and nothing run', async () => {
    const session = await open('broken.duckdb');
    let closed = false;
    try {
      await session.run('CREATE TABLE marks (n INTEGER)');
      // An entry for a schema the database does not know: its apply fails, as a full disk would make it.
      const entry = JSON.stringify({ kind: 'record', logName: 'srag_extract:Nowhere:0000', record: { source: '/nowhere.md', contentHash: 'h', values: {}, evidence: [], issues: [] } });
      // The statement that wrote it ran and answered: its apply comes after the answer.
      await expect(session.run(`INSERT INTO srag_journal VALUES (1000000, '${entry}')`)).resolves.toMatchObject({ returnsRows: false });
      await expect(session.run('INSERT INTO marks VALUES (1)')).rejects.toThrow(
        /^cannot move what the previous statement saved into srag's tables: the journal names a schema the database does not know \(srag_extract:Nowhere:0000\) — fix the cause/,
      );
      // Tried again for each statement, and refused again: none runs on tables that lack the writes.
      await expect(session.run('INSERT INTO marks VALUES (2)')).rejects.toThrow(/the journal names a schema the database does not know/);
      closed = true;
      await expect(session.close()).rejects.toThrow(/the journal names a schema the database does not know/);
    } finally {
      if (!closed) await session.close().catch(() => undefined);
    }
    // Read without srag (whose open would apply the journal): the refused statement wrote nothing, the entry is still journaled.
    const instance = await DuckDBInstance.create(join(workDirectory, 'broken.duckdb'));
    const connection = await instance.connect();
    expect((await connection.runAndReadAll('SELECT (SELECT count(*) FROM marks), (SELECT count(*) FROM srag_journal)')).getRowsJS()).toEqual([[0n, 1n]]);
    connection.closeSync();
    instance.closeSync();
  });
});
