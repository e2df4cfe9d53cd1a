import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordSchema, type StoredRecord } from '../../core/index.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';

const schema = parseRecordSchema({
  title: 'Guesthouse',
  properties: { city: { type: 'string', description: 'The city.' }, stars: { type: 'integer', description: 'Official star rating.' } },
  entities: { rooms: { description: 'Each room type.', properties: { room_type: { type: 'string', description: 'The room type.' } } } },
});

/** A record of `source` with evidence for each value and one item per room type (each with its evidence). */
function record(source: string, values: { city: string; stars?: number }, rooms: string[]): StoredRecord {
  const evidence = Object.entries(values).map(([attribute, value]) => ({ attribute, value, raw: value, quote: String(value), status: 'supported' as const, reason: null }));
  return {
    source, contentHash: `hash of ${JSON.stringify([values, rooms])}`, values: { stars: null, ...values }, evidence, issues: [],
    children: { rooms: rooms.map((room) => ({ values: { room_type: room }, evidence: [{ attribute: 'room_type', value: room, raw: room, quote: room, status: 'supported' as const, reason: null }] })) },
  };
}

async function openStore(): Promise<SragStore> {
  const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-replaces-')), 'srag.duckdb'));
  await store.registerTable('guesthouses', schema);
  return store;
}

/** The table's rows, items and evidence, sorted, whole numbers as numbers. */
async function contents(store: SragStore) {
  const rows = async (sql: string) => (await store.connection.runAndReadAll(sql)).getRowsJS().map((row) => row.map((cell) => (typeof cell === 'bigint' ? Number(cell) : cell)));
  return {
    rows: await rows('SELECT _source, city, stars FROM guesthouses ORDER BY _source'),
    rooms: await rows('SELECT _source, _position, room_type FROM guesthouses__rooms ORDER BY _source, _position'),
    evidence: await rows('SELECT table_name, source, attribute, value FROM srag_evidence ORDER BY table_name, source, attribute'),
  };
}

describe('the ingest store writes a record once per document, replacing what an earlier run saved', () => {
  it('saves the documents the log does not know without a DELETE (each would scan the whole table and its evidence)', async () => {
    const store = await openStore();
    try {
      const statements: string[] = [];
      const run = store.connection.run.bind(store.connection);
      store.connection.run = (sql, ...rest) => {
        statements.push(sql);
        return run(sql, ...rest);
      };
      const log = store.extractionStore('guesthouses', schema);
      expect((await log.logEntries(['/docs/a.md', '/docs/b.md'])).size).toBe(0);
      await Promise.all([log.saveRecord(record('/docs/a.md', { city: 'Porto', stars: 3 }, ['Double'])), log.saveRecord(record('/docs/b.md', { city: 'Lisbon' }, []))]);
      expect(statements.filter((sql) => /^\s*DELETE/i.test(sql))).toEqual([]);
      expect(await contents(store)).toEqual({
        rows: [['/docs/a.md', 'Porto', 3], ['/docs/b.md', 'Lisbon', null]],
        rooms: [['/docs/a.md', 1, 'Double']],
        evidence: [['guesthouses', '/docs/a.md', 'city', 'Porto'], ['guesthouses', '/docs/a.md', 'stars', '3'], ['guesthouses', '/docs/b.md', 'city', 'Lisbon'], ['guesthouses__rooms', '/docs/a.md', 'room_type[1]', 'Double']],
      });
    } finally {
      store.close();
    }
  });

  it('keeps no index on the evidence of a new file: writing 14 evidence rows per document paid its upkeep at every insert and checkpoint', async () => {
    const store = await openStore();
    try {
      const constraints = await store.connection.runAndReadAll("SELECT constraint_type FROM duckdb_constraints() WHERE table_name = 'srag_evidence' AND constraint_type IN ('PRIMARY KEY', 'UNIQUE')");
      expect(constraints.getRowsJS()).toEqual([]);
      const indexes = await store.connection.runAndReadAll("SELECT index_name FROM duckdb_indexes() WHERE table_name = 'srag_evidence'");
      expect(indexes.getRowsJS()).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('replaces the row, items and evidence of a document changed since an earlier run: no duplicate, nothing of the old version left', async () => {
    const store = await openStore();
    try {
      const first = store.extractionStore('guesthouses', schema);
      await first.logEntries(['/docs/a.md']);
      await first.saveRecord(record('/docs/a.md', { city: 'Porto', stars: 3 }, ['Double', 'Suite']));
      // The next run: the log knows the document, its changed content is extracted again.
      const rerun = store.extractionStore('guesthouses', schema);
      expect((await rerun.logEntries(['/docs/a.md', '/docs/b.md'])).get('/docs/a.md')).toMatchObject({ status: 'done' });
      await Promise.all([rerun.saveRecord(record('/docs/a.md', { city: 'Braga' }, ['Single'])), rerun.saveRecord(record('/docs/b.md', { city: 'Lisbon', stars: 2 }, ['Twin']))]);
      expect(await contents(store)).toEqual({
        rows: [['/docs/a.md', 'Braga', null], ['/docs/b.md', 'Lisbon', 2]],
        rooms: [['/docs/a.md', 1, 'Single'], ['/docs/b.md', 1, 'Twin']],
        evidence: [
          ['guesthouses', '/docs/a.md', 'city', 'Braga'], ['guesthouses', '/docs/b.md', 'city', 'Lisbon'], ['guesthouses', '/docs/b.md', 'stars', '2'],
          ['guesthouses__rooms', '/docs/a.md', 'room_type[1]', 'Single'], ['guesthouses__rooms', '/docs/b.md', 'room_type[1]', 'Twin'],
        ],
      });
    } finally {
      store.close();
    }
  });

  it('replaces a row the log did not know when the run read it (saved meanwhile by another writer, or its log entry deleted by hand) rather than failing on the key', async () => {
    const store = await openStore();
    try {
      const run = store.extractionStore('guesthouses', schema);
      await run.logEntries(['/docs/a.md', '/docs/c.md']);
      // Another writer of the table saves a.md after the run read the log; c.md had a record whose log entry is gone.
      await store.extractionStore('guesthouses', schema).saveRecord(record('/docs/a.md', { city: 'Porto', stars: 3 }, ['Double', 'Suite']));
      const other = store.extractionStore('guesthouses', schema);
      await other.saveRecord(record('/docs/c.md', { city: 'Faro', stars: 4 }, ['Loft']));
      await store.connection.run("DELETE FROM srag_ingestion_log WHERE source = '/docs/c.md'");
      await Promise.all([run.saveRecord(record('/docs/a.md', { city: 'Braga' }, ['Single'])), run.saveRecord(record('/docs/c.md', { city: 'Faro' }, []))]);
      expect(await contents(store)).toEqual({
        rows: [['/docs/a.md', 'Braga', null], ['/docs/c.md', 'Faro', null]],
        rooms: [['/docs/a.md', 1, 'Single']],
        evidence: [['guesthouses', '/docs/a.md', 'city', 'Braga'], ['guesthouses', '/docs/c.md', 'city', 'Faro'], ['guesthouses__rooms', '/docs/a.md', 'room_type[1]', 'Single']],
      });
      expect([...(await run.logEntries(['/docs/a.md', '/docs/c.md'])).values()].map((entry) => entry.status)).toEqual(['done', 'done']);
    } finally {
      store.close();
    }
  });
});
