import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordSchema, recordSchemaToJsonSchema, type StoredRecord } from '../../core/index.ts';
import { extractRecordTable } from '../../node/duckdb/store/extract-record-table.ts';
import type { JournalEntry } from '../../node/duckdb/store/journal-entry.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { withLiterals } from '../../node/duckdb/store/store-writes.ts';
import { StoreJournal } from '../../node/duckdb/store/store-journal.ts';

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

/**
 * A store whose journal holds `entries` (after the schema's), applied as the next open would apply
 * them, or `early`, as one query while a statement runs (`applyJournalSliceEarly`).
 */
async function applied(entries: JournalEntry[], early = false): Promise<SragStore> {
  const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-writes-')), 'writes.duckdb'));
  const journal = await StoreJournal.open(store.instance);
  journal.appendSync([{ kind: 'schema', schemaKey, title: 'Hotel', schemaJson: JSON.stringify(recordSchemaToJsonSchema(schema)) }, ...entries]);
  journal.close();
  if (early) expect(await store.applyJournalSliceEarly()).toBe('applied');
  else await store.applyJournal();
  return store;
}

async function rows(store: SragStore, sql: string): Promise<unknown[][]> {
  return (await store.connection.runAndReadAll(sql)).getRowsJS();
}

describe('the store writes journaled records, evidence, log entries and replies', () => {
  it.each([['after the statement', false], ['early, as one query', true]])('keeps every value as it was given, applied %s: odd text, exact numbers, large integers, dates, booleans, nulls', async (_when, early) => {
    const oddText = "line\nbreak, \"quotes\", 'single' and '' quotes, $1, tab\t, NUL \u0000 inside, emoji 😀, backslash \\";
    const store = await applied([
      { kind: 'record', logName: schemaKey, record: record('/docs/a.md', { name: oddText, price: 0.30000000000000004, rooms: 9_007_199_254_740_991, pets: true, opened: '2024-02-29' }, oddText) },
      { kind: 'record', logName: schemaKey, record: record('/docs/b.md', { name: 'B', price: 0, rooms: 0, pets: false, opened: null }) },
      { kind: 'record', logName: schemaKey, record: record('/docs/c.md', { name: null, price: 5e-324, rooms: -3, pets: null, opened: '1900-01-01' }) },
      { kind: 'record', logName: schemaKey, record: record('/docs/d.md', { name: 'lone \ud800 surrogate', price: 1.7976931348623157e308, rooms: null, pets: null, opened: null }) },
    ], early);
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
      expect(await rows(store, 'SELECT key, response, prompt_tokens, completion_tokens FROM srag_cache ORDER BY key')).toEqual([
        ['k1', 'first reply', 120n, 30n],
        ['k2', 'second reply', 120n, 30n],
      ]);
      expect(await rows(store, 'SELECT count(*) FROM srag_journal')).toEqual([[0n]]);
    } finally {
      store.close();
    }
  });

  it('applies a slice early only when it writes srag_extract tables alone; one that grows or back-fills a table srag ingest made is left whole for the apply after the statement', async () => {
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-writes-')), 'early.duckdb'));
    const journal = await StoreJournal.open(store.instance);
    try {
      const extracted = record('/docs/a.md', { name: 'A', price: 1, rooms: 1, pets: true, opened: null });
      journal.appendSync([{ kind: 'schema', schemaKey, title: 'Hotel', schemaJson: JSON.stringify(recordSchemaToJsonSchema(schema)) }, { kind: 'record', logName: schemaKey, record: extracted }]);
      expect(await store.applyJournalSliceEarly()).toBe('applied');
      const { quotedTable } = await extractRecordTable(store.connection, schemaKey);
      expect(await rows(store, `SELECT _source, name FROM ${quotedTable}`)).toEqual([['/docs/a.md', 'A']]);
      expect(await rows(store, 'SELECT count(*) FROM srag_journal')).toEqual([[0n]]);
      expect(await store.applyJournalSliceEarly()).toBe('empty');

      // A record for a table that is not srag_extract's (here one the database does not know): rolled back, every entry kept.
      journal.appendSync([{ kind: 'record', logName: schemaKey, record: record('/docs/b.md', { name: 'B', price: 2, rooms: 2, pets: false, opened: null }) }, { kind: 'record', logName: 'hotels', record: extracted }]);
      expect(await store.applyJournalSliceEarly()).toBe('declined');
      expect(await rows(store, 'SELECT count(*) FROM srag_journal')).toEqual([[2n]]);
      expect(await rows(store, `SELECT count(*) FROM ${quotedTable}`)).toEqual([[1n]]);
      // So is a grown table's schema.
      journal.appendSync([{ kind: 'grow-table', table: 'hotels', schemaJson: '{}' }]);
      expect(await store.applyJournalSliceEarly()).toBe('declined');
      expect(await rows(store, 'SELECT count(*) FROM srag_journal')).toEqual([[3n]]);
      // The apply after the statement meets them, and says what it cannot apply.
      await expect(store.applyJournal()).rejects.toThrow(/does not know \(hotels\)/);
    } finally {
      journal.close();
      store.close();
    }
  });

  it('writes a batched statement\'s parameters as literals only where they stand: not inside quoted text or names', async () => {
    expect(withLiterals(`SELECT $1, '$1 stays', "col$2", $2 || 'it''s $1', $10`, ["it's", null, '', '', '', '', '', '', '', 'ten']))
      .toBe(`SELECT 'it''s', '$1 stays', "col$2", NULL || 'it''s $1', 'ten'`);
    expect(() => withLiterals('SELECT $3', ['a'])).toThrow(/no value for \$3/);
    // What DuckDB reads back is the text given, whatever it holds.
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-writes-')), 'literals.duckdb'));
    try {
      const odd = `quote ' double '' backslash \\ dollar $1 newline \n tab \t emoji 😀`;
      expect(await rows(store, withLiterals('SELECT $1', [odd]))).toEqual([[odd]]);
    } finally {
      store.close();
    }
  });
});
