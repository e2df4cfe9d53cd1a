import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHotelCorpus } from '../../bench/generate-hotel-corpus.ts';
import { openSragDatabase } from '../../node/index.ts';
import type { JournalEntry } from '../../node/duckdb/store/journal-entry.ts';
import { StoreJournal } from '../../node/duckdb/store/store-journal.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// DuckDB runs on the test's own thread, which a scan blocks: the stand-in serves from a child process.
const documents = 100;
let standInProcess: ChildProcess;
let standInUrl: string;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-statement-journal-'));

beforeAll(async () => {
  generateHotelCorpus(workDirectory, documents);
  standInProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/llm-stand-in/serve.ts', '--corpus', workDirectory, '--latency-ms', '10', '--quiet'], {
    cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstLine = await new Promise<string>((resolve) => createInterface({ input: standInProcess.stdout! }).once('line', resolve));
  standInUrl = firstLine.replace(/^OPENAI_BASE_URL=/, '');
});
afterAll(() => {
  standInProcess.kill('SIGTERM');
  rmSync(workDirectory, { recursive: true, force: true });
});

const count = async (connection: DuckDBConnection, sql: string) => Number((await connection.runAndReadAll(sql)).getRowsJS()[0]![0]);

describe('the journal of a long srag_extract statement', () => {
  it('is kept in a file beside the database while the statement runs, not in DuckDB, and the apply after it leaves every document once', async () => {
    const path = join(workDirectory, 'journal.duckdb');
    const database = await openSragDatabase(path, { environment: { OPENAI_BASE_URL: standInUrl, SRAG_CONCURRENCY: '4' }, progress: false });
    try {
      const { connection } = database;
      const scan = `SELECT count(*), count(_error) FROM srag_extract('${join(workDirectory, 'docs', '*')}', schema := '${join(workDirectory, 'schema.json')}', batch_size := 1)`;
      expect((await connection.runAndReadAll(scan)).getRowsJS()).toEqual([[BigInt(documents), 0n]]);

      // Before the statement's own apply: a record and a reply per document, and the schema, are in
      // the file, and none in DuckDB, where what a statement commits stays in memory until it ends.
      const journaled = readFileSync(`${path}.journal`, 'utf8').split('\n').filter(Boolean);
      expect(journaled).toHaveLength(2 * documents + 1);
      expect(journaled.map((line) => Number(line.split(' ')[0]))).toEqual(Array.from({ length: 2 * documents + 1 }, (_, index) => index + 1));
      expect(await count(connection, 'SELECT (SELECT count(*) FROM srag_cache) + (SELECT count(*) FROM srag_ingestion_log) + (SELECT count(*) FROM srag_journal)')).toBe(0);

      await database.flush();
      expect(readFileSync(`${path}.journal`, 'utf8')).toBe('');
      const [table] = (await connection.runAndReadAll("SELECT schema_name || '.\"' || table_name || '\"' FROM duckdb_tables() WHERE schema_name = 'srag_extract'")).getRowsJS()[0] as [string];
      // Each document once: its row, its log entry, its reply, one evidence row per attribute.
      expect(await count(connection, `SELECT count(*) FROM ${table}`)).toBe(documents);
      expect(await count(connection, `SELECT count(DISTINCT "_source") FROM ${table}`)).toBe(documents);
      expect(await count(connection, "SELECT count(*) FROM srag_ingestion_log WHERE table_name LIKE 'srag_extract:%' AND status = 'done'")).toBe(documents);
      expect(await count(connection, 'SELECT count(*) FROM srag_cache')).toBe(documents);
      const evidence = await count(connection, 'SELECT count(*) FROM srag_evidence');
      expect(evidence).toBe(await count(connection, 'SELECT count(*) FROM (SELECT DISTINCT table_name, source, attribute FROM srag_evidence)'));
      expect(evidence % documents).toBe(0);
    } finally {
      await database.close();
    }
    // Closed with every entry applied: no file is left beside the database.
    expect(existsSync(`${path}.journal`)).toBe(false);
  });

  it('goes through a long scan a slice of documents at a time: the same rows in order, and a second scan of them before the apply makes no call', async () => {
    const path = join(workDirectory, 'slices.duckdb');
    const docs = join(workDirectory, 'docs', '*');
    const scan = (columns: string) => `SELECT ${columns} FROM srag_extract('${docs}', schema := '${join(workDirectory, 'schema.json')}')`;
    const database = await openSragDatabase(path, { environment: { OPENAI_BASE_URL: standInUrl, SRAG_CONCURRENCY: '4' }, progress: false, documentsPerScanRun: 30 });
    let recordLine: string;
    try {
      const { connection } = database;
      const rows = (await connection.runAndReadAll(scan('filename, hotel_name, _error'))).getRowsJS();
      expect(rows).toHaveLength(documents);
      expect(rows.map((row) => row[0])).toEqual(rows.map((row) => row[0]).sort());
      expect(rows.filter((row) => row[1] === null || row[2] !== null)).toEqual([]);
      const [usage] = await database.usage();
      expect(usage).toMatchObject({ cacheHits: 0 });
      // Not applied yet: the documents of the runs before the last are known from the bridge's own
      // file of what it wrote, not extracted again (nor taken from the reply cache).
      expect((await connection.runAndReadAll(scan('count(*), count(_error), count(hotel_name)'))).getRowsJS()).toEqual([[BigInt(documents), 0n, BigInt(documents)]]);
      expect(await database.usage()).toEqual([usage]);
      // None of the documents had a row: each record is journaled as one to insert only.
      const records = readFileSync(`${path}.journal`, 'utf8').split('\n').filter((line) => line.includes('"kind":"record"'));
      expect(records).toHaveLength(documents);
      expect(records.every((line) => (JSON.parse(line.slice(line.indexOf(' ') + 1)) as { fresh?: boolean }).fresh === true)).toBe(true);
      recordLine = records[0]!;
    } finally {
      await database.close();
    }

    // A record journaled as new for a document that has a row after all (the key refuses the
    // insert) replaces it, with its evidence, when the journal is applied.
    const entry = JSON.parse(recordLine.slice(recordLine.indexOf(' ') + 1)) as Extract<JournalEntry, { kind: 'record' }>;
    entry.record.values = { ...entry.record.values, hotel_name: 'Renamed Hotel' };
    const journal = StoreJournal.open(`${path}.journal`, Number(recordLine.split(' ')[0]) + 10_000);
    journal.appendSync([entry]);
    journal.close();
    const reopened = await openSragDatabase(path, { environment: { OPENAI_BASE_URL: standInUrl }, progress: false });
    try {
      const { connection } = reopened;
      const [table] = (await connection.runAndReadAll("SELECT schema_name || '.\"' || table_name || '\"' FROM duckdb_tables() WHERE schema_name = 'srag_extract'")).getRowsJS()[0] as [string];
      expect(await count(connection, `SELECT count(*) FROM ${table}`)).toBe(documents);
      expect((await connection.runAndReadAll(`SELECT hotel_name FROM ${table} WHERE "_source" = $1`, [entry.record.source])).getRowsJS()).toEqual([['Renamed Hotel']]);
      expect(await count(connection, 'SELECT count(*) FROM srag_evidence')).toBe(await count(connection, 'SELECT count(*) FROM (SELECT DISTINCT table_name, source, attribute FROM srag_evidence)'));
    } finally {
      await reopened.close();
    }
  });

  it('scans again when a prepared statement runs twice: the documents bind listed are listed again for the second run', async () => {
    const database = await openSragDatabase(join(workDirectory, 'prepared.duckdb'), { environment: { OPENAI_BASE_URL: standInUrl, SRAG_CONCURRENCY: '4' }, progress: false });
    try {
      const prepared = await database.connection.prepare(`SELECT count(*), count(_error) FROM srag_extract('${join(workDirectory, 'docs', '*')}', schema := '${join(workDirectory, 'schema.json')}')`);
      expect((await prepared.runAndReadAll()).getRowsJS()).toEqual([[BigInt(documents), 0n]]);
      await database.flush();
      expect((await prepared.runAndReadAll()).getRowsJS()).toEqual([[BigInt(documents), 0n]]);
    } finally {
      await database.close();
    }
  });
});
