import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordSchema, type StoredRecord } from '../../core/index.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { keptReplyText } from '../../node/duckdb/store/kept-reply-text.ts';
import { writeCacheEntries, writeLogEntries, writeRecords } from '../../node/duckdb/store/store-writes.ts';
import { recordTarget } from '../../node/duckdb/store/srag-store.ts';
import { recordStatements } from '../helpers/record-statements.ts';

const schema = parseRecordSchema({ title: 'Guesthouse', properties: { city: { type: 'string', description: 'The city.' } } });

function record(source: string, city: string): StoredRecord {
  return {
    source, contentHash: `hash of ${city}`, values: { city }, issues: [], attributeHashes: ['a1'],
    evidence: [{ attribute: 'city', value: city, raw: city, quote: city, status: 'supported', reason: null }],
  };
}

async function openStore(): Promise<SragStore> {
  const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-appended-')), 'srag.duckdb'));
  await store.registerTable('guesthouses', schema);
  return store;
}

async function rows(store: SragStore, sql: string) {
  return (await store.connection.runAndReadAll(sql)).getRowsJS().map((row) => row.map((cell) => (typeof cell === 'bigint' ? Number(cell) : cell)));
}

describe('the ingest store appends what it knows to be new through DuckDB\'s appender', () => {
  it('writes a run\'s replies and the log entries of documents the log did not know with no statement, each column as a statement wrote it', async () => {
    const store = await openStore();
    try {
      const statements = recordStatements(store);
      const run = store.extractionStore('guesthouses', schema);
      expect((await run.logEntries(['/docs/a.md', '/docs/b.md'])).size).toBe(0);
      const reply = { text: '{"records":[{"city":"Porto"}]}', model: 'stand-in', usage: { promptTokens: 120, completionTokens: 30 }, endpoint: 'https://llm.example/v1', requestKey: 'request-1' };
      await run.responseCache.set('key-1', reply);
      await Promise.all([run.saveRecord(record('/docs/a.md', 'Porto')), run.saveRecord(record('/docs/b.md', 'Lisbon'))]);
      expect(statements.filter((sql) => /INSERT INTO srag_(cache|ingestion_log)/.test(sql))).toEqual([]);
      expect((await rows(store, 'SELECT key, model, response, response_deflated, prompt_tokens, completion_tokens, purpose, endpoint, request_key, created_at IS NOT NULL FROM srag_cache'))
        .map(([key, model, response, deflated, ...rest]) => [key, model, keptReplyText(response, deflated), ...rest]))
        .toEqual([['key-1', 'stand-in', reply.text, 120, 30, 'extraction', 'https://llm.example/v1', 'request-1', true]]);
      expect(await rows(store, 'SELECT table_name, source, content_hash, status, error, attempts, updated_at IS NOT NULL, attribute_hashes FROM srag_ingestion_log ORDER BY source')).toEqual([
        ['guesthouses', '/docs/a.md', 'hash of Porto', 'done', null, 1, true, '["a1"]'],
        ['guesthouses', '/docs/b.md', 'hash of Lisbon', 'done', null, 1, true, '["a1"]'],
      ]);
      // A document the log knows is upserted, as before: its attempts counted.
      await run.saveRecord(record('/docs/a.md', 'Braga'));
      expect(await rows(store, "SELECT content_hash, attempts FROM srag_ingestion_log WHERE source = '/docs/a.md'")).toEqual([['hash of Braga', 2]]);
    } finally {
      store.close();
    }
  });

  it('keeps the reply a key has and appends only the others; a first log entry for a document that has one fails on the key, as the insert did', async () => {
    const store = await openStore();
    try {
      const reply = (text: string) => ({ key: 'same', response: { text, model: 'm', usage: { promptTokens: 1, completionTokens: 1 } }, purpose: null });
      await writeCacheEntries(store.connection, [reply('first')], { appender: true });
      await writeCacheEntries(store.connection, [reply('second'), { ...reply('other'), key: 'other' }, { ...reply('third'), key: 'other' }], { appender: true });
      expect((await rows(store, 'SELECT key, response, response_deflated FROM srag_cache ORDER BY key')).map(([key, response, deflated]) => [key, keptReplyText(response, deflated)]))
        .toEqual([['other', 'other'], ['same', 'first']]);
      const entry = { source: '/docs/a.md', contentHash: 'h', status: 'failed' as const, error: 'boom' };
      await writeLogEntries(store.connection, 'guesthouses', [entry]);
      await expect(writeLogEntries(store.connection, 'guesthouses', [entry], new Set(['/docs/a.md']))).rejects.toThrow(/key|constraint/i);
    } finally {
      store.close();
    }
  });

  it('falls back to the statement for a srag_cache whose columns are not the ones srag makes', async () => {
    const store = await openStore();
    try {
      await store.connection.run('DROP TABLE srag_cache');
      await store.connection.run('CREATE TABLE srag_cache (key VARCHAR, model VARCHAR, response VARCHAR, prompt_tokens BIGINT, completion_tokens BIGINT, purpose VARCHAR, endpoint VARCHAR, request_key VARCHAR, response_deflated BLOB, created_at TIMESTAMP DEFAULT current_timestamp)');
      const statements = recordStatements(store);
      await writeCacheEntries(store.connection, [{ key: 'k', response: { text: 't', model: 'm', usage: { promptTokens: 2, completionTokens: 3 }, endpoint: 'e' }, purpose: null }], { appender: true });
      expect(statements.filter((sql) => /INSERT INTO srag_cache/.test(sql))).toHaveLength(1);
      expect((await rows(store, 'SELECT key, response, response_deflated, prompt_tokens, completion_tokens, endpoint, created_at IS NOT NULL FROM srag_cache'))
        .map(([key, response, deflated, ...rest]) => [key, keptReplyText(response, deflated), ...rest])).toEqual([['k', 't', 2, 3, 'e', true]]);
    } finally {
      store.close();
    }
  });

  it('looks up and keeps replies under keys that hold quotes, as any other key', async () => {
    const store = await openStore();
    try {
      const run = store.extractionStore('guesthouses', schema);
      const reply = (text: string) => ({ text, model: 'm', usage: { promptTokens: 1, completionTokens: 1 } });
      const key = "it's a \"key\" '' --";
      expect(await run.responseCache.get(key)).toBeUndefined();
      await writeCacheEntries(store.connection, [{ key, response: reply('first'), purpose: null }], { appender: true });
      await writeCacheEntries(store.connection, [{ key, response: reply('second'), purpose: null }, { key: `${key}'`, response: reply('other'), purpose: null }], { appender: true });
      expect((await run.responseCache.get(key))?.text).toBe('first');
      expect((await run.responseCache.get(`${key}'`))?.text).toBe('other');
      expect(await run.responseCache.get("it's")).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('appends a run\'s records with no statement, each typed column as the statement wrote it', async () => {
    const typed = parseRecordSchema({ title: 'Hotel', properties: {
      name: { type: 'string', description: 'Name.' }, stars: { type: 'integer', description: 'Stars.' }, price: { type: 'number', description: 'Price.' },
      pool: { type: 'boolean', description: 'Pool.' }, opened: { type: 'string', format: 'date', description: 'Opened.' },
    } });
    const values = [
      { name: 'Casa Azul', stars: 4, price: 129.5, pool: true, opened: '2019-06-01' },
      { name: 'Ünïcode ✓ 酒店', stars: -2, price: 1e21, pool: false, opened: '2024-02-29' },
      { name: null, stars: null, price: 0.1, pool: null, opened: null },
    ];
    const typedRecord = (source: string, index: number): StoredRecord => ({ ...record(source, 'x'), values: values[index]!, evidence: [] });
    const store = await openStore();
    try {
      await store.registerTable('appended', typed);
      await store.registerTable('stated', typed);
      const statements = recordStatements(store);
      const run = store.extractionStore('appended', typed);
      await run.logEntries(['/docs/0.md', '/docs/1.md', '/docs/2.md']);
      await Promise.all(values.map((_, index) => run.saveRecord(typedRecord(`/docs/${index}.md`, index))));
      expect(statements.filter((sql) => sql.includes('INSERT INTO "appended"'))).toEqual([]);
      // The statement's way (a target without `appendTable`), into a table of the same schema.
      await writeRecords(store.connection, recordTarget('stated', typed), values.map((_, index) => typedRecord(`/docs/${index}.md`, index)));
      expect(statements.filter((sql) => sql.includes('INSERT INTO "stated"'))).toHaveLength(1);
      const read = (table: string) => rows(store, `SELECT name, stars, price, pool, opened::VARCHAR, typeof(stars), typeof(price), _source, _content_hash FROM "${table}" ORDER BY _source`);
      expect(await read('appended')).toEqual(await read('stated'));
      expect((await read('appended'))[1]).toEqual(['Ünïcode ✓ 酒店', -2, 1e21, false, '2024-02-29', 'BIGINT', 'DOUBLE', '/docs/1.md', 'hash of x']);
    } finally {
      store.close();
    }
  });

  it('puts each value in its own column when the table\'s columns come in another order than the schema\'s (a grown table)', async () => {
    const store = await openStore();
    try {
      // Grown: `stars` and `name` become columns after `_content_hash`, while the schema lists them around `city`.
      const grown = parseRecordSchema({ title: 'Guesthouse', properties: {
        stars: { type: 'integer', description: 'Stars.' }, city: { type: 'string', description: 'The city.' }, name: { type: 'string', description: 'Name.' },
      } });
      const { schema: current } = await store.registerTable('guesthouses', grown);
      expect((await rows(store, "SELECT column_name FROM duckdb_columns() WHERE table_name = 'guesthouses' ORDER BY column_index")).flat())
        .toEqual(['city', '_source', '_content_hash', 'stars', 'name']);
      const statements = recordStatements(store);
      const run = store.extractionStore('guesthouses', current);
      await run.logEntries(['/docs/a.md']);
      await run.saveRecord({ ...record('/docs/a.md', 'Porto'), values: { stars: 3, city: 'Porto', name: 'Casa' } });
      expect(statements.filter((sql) => sql.includes('INSERT INTO "guesthouses"'))).toEqual([]);
      expect(await rows(store, 'SELECT city, _source, _content_hash, stars, name FROM guesthouses')).toEqual([['Porto', '/docs/a.md', 'hash of Porto', 3, 'Casa']]);
    } finally {
      store.close();
    }
  });

  it('appends evidence by column name, and goes back to the statement for a srag_evidence with a column srag does not write', async () => {
    const store = await openStore();
    try {
      await store.connection.run('DROP TABLE srag_evidence');
      await store.connection.run('CREATE TABLE srag_evidence (reason VARCHAR, status VARCHAR NOT NULL, quote VARCHAR, raw VARCHAR, value VARCHAR, attribute VARCHAR NOT NULL, source VARCHAR NOT NULL, table_name VARCHAR NOT NULL)');
      const statements = recordStatements(store);
      const run = store.extractionStore('guesthouses', schema);
      await run.saveRecord({ ...record('/docs/a.md', 'Porto'), evidence: [{ attribute: 'city', value: 'Porto', raw: 'porto', quote: 'in Porto', status: 'supported', reason: 'read' }] });
      expect(statements.filter((sql) => sql.includes('INSERT INTO srag_evidence'))).toEqual([]);
      const evidence = 'SELECT table_name, source, attribute, value, raw, quote, status, reason FROM srag_evidence ORDER BY source';
      expect(await rows(store, evidence)).toEqual([['guesthouses', '/docs/a.md', 'city', 'Porto', 'porto', 'in Porto', 'supported', 'read']]);
      await store.connection.run('ALTER TABLE srag_evidence ADD COLUMN note VARCHAR');
      await run.saveRecord({ ...record('/docs/b.md', 'Braga'), evidence: [{ attribute: 'city', value: 'Braga', raw: 'braga', quote: 'in Braga', status: 'supported', reason: null }] });
      expect(statements.filter((sql) => sql.includes('INSERT INTO srag_evidence'))).toHaveLength(1);
      expect((await rows(store, evidence))[1]).toEqual(['guesthouses', '/docs/b.md', 'city', 'Braga', 'braga', 'in Braga', 'supported', null]);
    } finally {
      store.close();
    }
  });
});
