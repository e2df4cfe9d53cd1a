import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parseRecordSchema, recordSchemaToJsonSchema, type StoredRecord } from '../../core/index.ts';
import { extractRecordTable } from '../../node/duckdb/store/extract-record-table.ts';
import type { JournalEntry } from '../../node/duckdb/store/journal-entry.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { keptReplyText } from '../../node/duckdb/store/kept-reply-text.ts';
import { StoreJournal } from '../../node/duckdb/store/store-journal.ts';
import { storeTablesSql } from '../../node/duckdb/store/store-tables.ts';
import { DuckDBInstance } from '@duckdb/node-api';

const schema = parseRecordSchema({
  title: 'Hotel',
  properties: {
    name: { type: 'string', description: 'The name.' },
    price: { type: 'number', description: 'Price in EUR.' },
    rooms: { type: 'integer', description: 'Rooms.' },
    pets: { type: 'boolean', description: 'Pets allowed.' },
    opened: { type: 'string', format: 'date', description: 'Opening date.' },
  },
});
const schemaKey = 'srag_extract:Hotel:test';

function record(source: string, values: StoredRecord['values'], quote = 'a quote'): StoredRecord {
  return {
    source, contentHash: `hash of ${source}`, values, issues: [],
    evidence: Object.entries(values).map(([attribute, value]) => ({ attribute, value, raw: value, quote, status: 'supported' as const, reason: null })),
  };
}

const schemaEntry: JournalEntry = { kind: 'schema', schemaKey, title: 'Hotel', schemaJson: JSON.stringify(recordSchemaToJsonSchema(schema)) };

/** A store whose journal holds `entries` (after the schema's), applied as after a statement. */
async function applied(entries: JournalEntry[], path = join(mkdtempSync(join(tmpdir(), 'srag-writes-')), 'writes.duckdb')): Promise<SragStore> {
  const store = await SragStore.open(path);
  await applyMore(store, [schemaEntry, ...entries]);
  return store;
}

/** Journals `entries` after what `store` applied, and applies them. */
async function applyMore(store: SragStore, entries: JournalEntry[]): Promise<void> {
  const journal = StoreJournal.open(store.journalFile, await store.lastJournalSequence());
  journal.appendSync(entries);
  journal.close();
  await store.applyJournal();
}

async function rows(store: SragStore, sql: string): Promise<unknown[][]> {
  return (await store.connection.runAndReadAll(sql)).getRowsJS();
}

describe('the store writes journaled records, evidence, log entries and replies', () => {
  it('keeps every value as it was given: odd text, exact numbers, large integers, dates, booleans, nulls', async () => {
    const oddText = "line\nbreak, \"quotes\", 'single' and '' quotes, $1, tab\t, NUL \u0000 inside, emoji 😀, backslash \\";
    const store = await applied([
      { kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: oddText, price: 0.30000000000000004, rooms: 9_007_199_254_740_991, pets: true, opened: '2024-02-29' }, oddText) },
      { kind: 'record', logName: schemaKey, record: record('/docs/b.md', { name: 'B', price: 0, rooms: 0, pets: false, opened: null }) },
      { kind: 'record', logName: schemaKey, record: record('/docs/c.md', { name: null, price: 5e-324, rooms: -3, pets: null, opened: '1900-01-01' }) },
      { kind: 'record', logName: schemaKey, record: record('/docs/d.md', { name: 'lone \ud800 surrogate', price: 1.7976931348623157e308, rooms: null, pets: null, opened: null }) },
    ]);
    try {
      const { quotedTable } = await extractRecordTable(store.connection, schemaKey);
      const table = await rows(store, `SELECT _source, name, price, rooms, pets, strftime(opened, '%Y-%m-%d') FROM ${quotedTable} ORDER BY _source`);
      expect(table).toEqual([
        ['/docs/a.md', oddText, 0.30000000000000004, 9_007_199_254_740_991n, true, '2024-02-29'],
        ['/docs/b.md', 'B', 0, 0n, false, null],
        ['/docs/c.md', null, 5e-324, -3n, null, '1900-01-01'],
        // A lone surrogate cannot be stored in UTF-8: it becomes U+FFFD, as a bound parameter's does.
        ['/docs/d.md', 'lone \ufffd surrogate', 1.7976931348623157e308, null, null, null],
      ]);
      const evidence = await rows(store, `SELECT quote, value FROM srag_evidence WHERE source = '/docs/a.md' AND attribute IN ('name', 'price') ORDER BY attribute`);
      expect(evidence).toEqual([[oddText, oddText], [oddText, '0.30000000000000004']]);
      expect(await rows(store, `SELECT count(*) FROM srag_ingestion_log WHERE table_name = '${schemaKey}' AND status = 'done'`)).toEqual([[4n]]);
    } finally {
      store.close();
    }
  });

  it('updates only the attributes a partial record carries, exactly, and keeps the rest with its evidence', async () => {
    const partial = { ...record('/docs/a.md', { price: 0.30000000000000004, opened: '2024-02-29' }, 'the new quote'), onlyAttributes: ['price', 'opened'] };
    const store = await applied([
      { kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: 'A', price: 1, rooms: 7, pets: true, opened: null }, 'the first quote') },
      { kind: 'record', logName: schemaKey, record: partial },
    ]);
    try {
      const { quotedTable } = await extractRecordTable(store.connection, schemaKey);
      expect(await rows(store, `SELECT name, price, rooms, pets, strftime(opened, '%Y-%m-%d') FROM ${quotedTable}`)).toEqual([['A', 0.30000000000000004, 7n, true, '2024-02-29']]);
      expect(await rows(store, `SELECT attribute, quote FROM srag_evidence WHERE source = '/docs/a.md' ORDER BY attribute`)).toEqual([
        ['name', 'the first quote'], ['opened', 'the new quote'], ['pets', 'the first quote'], ['price', 'the new quote'], ['rooms', 'the first quote'],
      ]);
    } finally {
      store.close();
    }
    const bad = { ...record('/docs/a.md', { rooms: 'seven' as unknown as number }), onlyAttributes: ['rooms'] };
    await expect(applied([
      { kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: 'A', price: 1, rooms: 7, pets: true, opened: null }) },
      { kind: 'record', logName: schemaKey, record: bad },
    ])).rejects.toThrow(/seven/);
  });

  it('refuses a value its column cannot hold rather than storing NULL in its place', async () => {
    const bad = record('/docs/bad.md', { name: 'X', price: 'twelve' as unknown as number, rooms: 1, pets: true, opened: null });
    await expect(applied([{ kind: 'record', logName: schemaKey, record: bad }])).rejects.toThrow(/twelve/);
    const badDate = record('/docs/bad.md', { name: 'X', price: 1, rooms: 2, pets: true, opened: 'last spring' });
    await expect(applied([{ kind: 'record', logName: schemaKey, record: badDate }])).rejects.toThrow(/last spring/);
  });

  it('applies interleaved replies, records and log entries as if one at a time: the later entry of a document wins, a reply key keeps its first reply', async () => {
    const reply = (text: string) => ({ text, model: 'gpt-4o-mini', usage: { promptTokens: 120, completionTokens: 30 } });
    const store = await applied([
      { kind: 'cache', key: 'k1', response: reply('first reply'), purpose: 'extraction' },
      { kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: 'A', price: 1, rooms: 1, pets: true, opened: null }) },
      { kind: 'cache', key: 'k2', response: reply('second reply'), purpose: 'extraction' },
      { kind: 'record', logName: schemaKey, record: record('/docs/b.md', { name: 'B', price: 2, rooms: 2, pets: false, opened: null }) },
      { kind: 'cache', key: 'k1', response: reply('a later reply for the same key'), purpose: 'extraction' },
      { kind: 'log', logName: schemaKey, entry: { source: '/docs/a.md', contentHash: 'changed', status: 'failed', error: 'the model refused' } },
      { kind: 'record', logName: schemaKey, record: record('/docs/b.md', { name: 'B2', price: 3, rooms: 3, pets: true, opened: null }) },
    ]);
    try {
      const { quotedTable } = await extractRecordTable(store.connection, schemaKey);
      expect(await rows(store, `SELECT _source, name, price FROM ${quotedTable} ORDER BY _source`)).toEqual([['/docs/a.md', 'A', 1], ['/docs/b.md', 'B2', 3]]);
      expect(await rows(store, `SELECT source, content_hash, status, error FROM srag_ingestion_log WHERE table_name = '${schemaKey}' ORDER BY source`)).toEqual([
        ['/docs/a.md', 'changed', 'failed', 'the model refused'],
        ['/docs/b.md', 'hash of /docs/b.md', 'done', null],
      ]);
      expect((await rows(store, 'SELECT key, response, response_deflated, prompt_tokens, completion_tokens FROM srag_cache ORDER BY key'))
        .map(([key, response, deflated, ...usage]) => [key, keptReplyText(response, deflated), ...usage])).toEqual([
        ['k1', 'first reply', 120n, 30n],
        ['k2', 'second reply', 120n, 30n],
      ]);
      expect(await rows(store, 'SELECT count(*) FROM srag_journal')).toEqual([[0n]]);
    } finally {
      store.close();
    }
  });

  it('applies each journaled entry once whatever stops the apply: entries a slice applied before a kill are skipped, a line cut short is left out, and the file is emptied', async () => {
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-writes-')), 'once.duckdb'));
    try {
      let journal = StoreJournal.open(store.journalFile, await store.lastJournalSequence());
      journal.appendSync([schemaEntry, { kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: 'A', price: 1, rooms: 1, pets: true, opened: null }) }]);
      journal.appendSync([{ kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: 'A2', price: 2, rooms: 2, pets: true, opened: null }) }]);
      journal.close();
      const written = readFileSync(store.journalFile, 'utf8').split('\n');
      expect(written.map((line) => line.split(' ')[0])).toEqual(['1', '2', '3', '']);
      await store.applyJournal();
      expect(readFileSync(store.journalFile, 'utf8')).toBe('');
      expect(await rows(store, 'SELECT through FROM srag_journal_applied')).toEqual([[3n]]);

      // A kill after a slice's commit, before the file was emptied: its lines are still there. The
      // next journal numbers after them, and a kill cuts its last line short.
      appendFileSync(store.journalFile, `${written[1]}\n`);
      journal = StoreJournal.open(store.journalFile, await store.lastJournalSequence());
      journal.appendSync([{ kind: 'log', logName: schemaKey, entry: { source: '/docs/b.md', contentHash: 'b', status: 'failed', error: 'the model refused' } }]);
      journal.close();
      expect(readFileSync(store.journalFile, 'utf8').split('\n')[1]).toMatch(/^4 /);
      appendFileSync(store.journalFile, '5 {"kind":"record","logName":');
      await store.applyJournal();
      const { quotedTable } = await extractRecordTable(store.connection, schemaKey);
      // Sequence 2 ('A') was applied before: applied again, it would have undone 'A2'.
      expect(await rows(store, `SELECT _source, name FROM ${quotedTable}`)).toEqual([['/docs/a.md', 'A2']]);
      expect(await rows(store, `SELECT source, status FROM srag_ingestion_log WHERE table_name = '${schemaKey}' ORDER BY source`)).toEqual([['/docs/a.md', 'done'], ['/docs/b.md', 'failed']]);
      expect(await rows(store, 'SELECT through FROM srag_journal_applied')).toEqual([[4n]]);
      expect(readFileSync(store.journalFile, 'utf8')).toBe('');
      // A journal opened after a cut line starts a line of its own.
      appendFileSync(store.journalFile, '5 {"kind":"rec');
      journal = StoreJournal.open(store.journalFile, await store.lastJournalSequence());
      journal.appendSync([{ kind: 'log', logName: schemaKey, entry: { source: '/docs/c.md', contentHash: 'c', status: 'empty', error: null } }]);
      journal.close();
      await store.applyJournal();
      expect(await rows(store, `SELECT count(*) FROM srag_ingestion_log WHERE table_name = '${schemaKey}' AND source = '/docs/c.md'`)).toEqual([[1n]]);
    } finally {
      store.close();
    }
  });

  it('keeps the first reply of a key across applies, in a new file (srag_cache without a key) as in one an older srag made with its key', async () => {
    const reply = (text: string) => ({ text, model: 'gpt-4o-mini', usage: { promptTokens: 120, completionTokens: 30 } });
    const directory = mkdtempSync(join(tmpdir(), 'srag-writes-'));
    const older = join(directory, 'older.duckdb');
    const instance = await DuckDBInstance.create(older);
    const connection = await instance.connect();
    await connection.run(storeTablesSql.replace(/CREATE TABLE IF NOT EXISTS srag_cache \(\n  key VARCHAR NOT NULL,/, 'CREATE TABLE IF NOT EXISTS srag_cache (\n  key VARCHAR PRIMARY KEY,'));
    connection.closeSync();
    instance.closeSync();
    for (const [path, keys] of [[join(directory, 'new.duckdb'), 0n], [older, 1n]] as const) {
      const store = await applied([{ kind: 'cache', key: 'k1', response: reply('first reply'), purpose: 'extraction' }], path);
      try {
        await applyMore(store, [
          { kind: 'cache', key: 'k1', response: reply('a later reply for the same key'), purpose: 'extraction' },
          { kind: 'cache', key: 'k2', response: reply('another key'), purpose: null },
        ]);
        expect((await rows(store, 'SELECT key, response, response_deflated FROM srag_cache ORDER BY key')).map(([key, response, deflated]) => [key, keptReplyText(response, deflated)]))
          .toEqual([['k1', 'first reply'], ['k2', 'another key']]);
        expect(await rows(store, "SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'srag_cache' AND constraint_type = 'PRIMARY KEY'")).toEqual([[keys]]);
      } finally {
        store.close();
      }
    }
  });

  it('tries a slice that failed again the old way only when it held a record journaled as fresh: any other failure fails at once', async () => {
    const store = await applied([{ kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: 'A', price: 1, rooms: 1, pets: true, opened: null }) }]);
    try {
      const begun = () => run.mock.calls.filter(([sql]) => sql === 'BEGIN TRANSACTION').length;
      const run = vi.spyOn(store.connection, 'run');
      // A record of a table the database does not know fails the same way whichever way it is written.
      await expect(applyMore(store, [{ kind: 'record', logName: 'srag_extract:Unknown:test', record: record('/docs/b.md', { name: 'B' }) }])).rejects.toThrow(/does not know \(srag_extract:Unknown:test\)/);
      expect(begun()).toBe(1);
      // The journal still holds the failed entry: the next apply meets it first. Emptied, as if fixed by hand.
      writeFileSync(store.journalFile, '');
      run.mockClear();
      // A record journaled as fresh whose document has a row after all: the key refuses it, the slice is applied again, replacing the row.
      await applyMore(store, [{ kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: 'A2', price: 2, rooms: 2, pets: true, opened: null }), fresh: true }]);
      expect(begun()).toBe(2);
      const { quotedTable } = await extractRecordTable(store.connection, schemaKey);
      expect(await rows(store, `SELECT _source, name FROM ${quotedTable}`)).toEqual([['/docs/a.md', 'A2']]);
      expect(await rows(store, "SELECT count(*) FROM srag_evidence WHERE source = '/docs/a.md' AND attribute = 'name'")).toEqual([[1n]]);
    } finally {
      store.close();
    }
  });

  it('applies the journal file under a lower memory limit, sets back the one DuckDB had after, and applies a slice that needs more under that one', async () => {
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-writes-')), 'limit.duckdb'));
    try {
      const before = String((await rows(store, "SELECT value FROM duckdb_settings() WHERE name = 'memory_limit'"))[0]![0]);
      const run = vi.spyOn(store.connection, 'run');
      for (const source of ['/docs/a.md', '/docs/b.md']) {
        run.mockClear();
        await applyMore(store, [schemaEntry, { kind: 'record', logName: schemaKey, record: record(source, { name: 'A', price: 1, rooms: 1, pets: true, opened: null }) }]);
        const limits = run.mock.calls.map(([sql]) => /^SET memory_limit = '(.*)'$/.exec(sql)?.[1]).filter((value) => value !== undefined);
        // Lowered before the first slice, to a few hundred MB; last, the limit as first read (read
        // again after an apply, DuckDB's rounded text of it would come back a little lower each time).
        expect(limits[0]).toMatch(/^\d+KiB$/);
        expect(Number(limits[0]!.replace('KiB', '')) * 1024).toBeLessThan(1024 ** 3);
        expect(limits.at(-1)).toBe(before);
      }
      // Nothing to apply: the limit is not touched.
      run.mockClear();
      await store.applyJournal();
      expect(run.mock.calls.filter(([sql]) => sql.startsWith('SET memory_limit'))).toEqual([]);

      // A slice that needs more than the lowered limit is applied again under the limit DuckDB had, as is the rest.
      const realRun = (Object.getPrototypeOf(store.connection) as typeof store.connection).run.bind(store.connection);
      let refused = false;
      run.mockClear();
      run.mockImplementation(async (sql, ...rest) => {
        if (!refused && sql.startsWith('INSERT INTO srag_journal_applied')) {
          refused = true;
          throw new Error('Out of Memory Error: failed to allocate data of size 64.0 MiB (255.9 MiB/256.0 MiB used)');
        }
        return realRun(sql, ...rest);
      });
      await applyMore(store, [{ kind: 'record', logName: schemaKey, record: record('/docs/c.md', { name: 'C', price: 3, rooms: 3, pets: false, opened: null }) }]);
      expect(refused).toBe(true);
      const { quotedTable } = await extractRecordTable(store.connection, schemaKey);
      expect(await rows(store, `SELECT _source FROM ${quotedTable} ORDER BY _source`)).toEqual([['/docs/a.md'], ['/docs/b.md'], ['/docs/c.md']]);
      const sets = run.mock.calls.map(([sql]) => sql).filter((sql) => sql.startsWith('SET memory_limit'));
      expect(sets.at(-1)).toBe(`SET memory_limit = '${before}'`);
      expect(run.mock.calls.filter(([sql]) => sql === 'BEGIN TRANSACTION')).toHaveLength(2);
    } finally {
      store.close();
    }
  });

  it('still applies what an older srag journaled in srag_journal, before the journal file', async () => {
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-writes-')), 'older.duckdb'));
    try {
      await store.connection.run('INSERT INTO srag_journal VALUES (1, $1), (2, $2)', [JSON.stringify(schemaEntry), JSON.stringify({ kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: 'A', price: 1, rooms: 1, pets: true, opened: null }) })]);
      const journal = StoreJournal.open(store.journalFile, await store.lastJournalSequence());
      journal.appendSync([{ kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: 'A2', price: 2, rooms: 2, pets: true, opened: null }) }]);
      journal.close();
      expect(readFileSync(store.journalFile, 'utf8')).toMatch(/^3 /);
      await store.applyJournal();
      const { quotedTable } = await extractRecordTable(store.connection, schemaKey);
      expect(await rows(store, `SELECT name FROM ${quotedTable}`)).toEqual([['A2']]);
      expect(await rows(store, 'SELECT count(*) FROM srag_journal')).toEqual([[0n]]);
    } finally {
      store.close();
    }
  });
});
