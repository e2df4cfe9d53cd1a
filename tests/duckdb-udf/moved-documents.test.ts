import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { attributeDefinitionHash, parseRecordSchema, type StoredRecord } from '../../core/index.ts';
import { hashText } from '../../node/runtime/hash-text.ts';
import { followingMovedDocuments } from '../../node/duckdb/store/moved-documents.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';

const schema = parseRecordSchema({
  title: 'Hotel',
  properties: { city: { type: 'string', description: 'The city.' }, stars: { type: 'integer', description: 'Official star rating.' } },
});
const [city, stars] = schema.attributes;
const evidence = (attribute: string, value: string | number) => ({ attribute, value, raw: value, quote: String(value), status: 'supported' as const, reason: null });

describe('following a moved document in the store', () => {
  it('moves the record before a save for its new path, even when that save joins a transaction already waiting for its turn', async () => {
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-moved-')), 'moved.duckdb'));
    try {
      await store.registerTable('hotels', schema);
      const log = store.extractionStore('hotels', schema);
      const content = 'The Alpha Hotel, Paris, 3 stars.';
      const gone = join(tmpdir(), 'srag-no-such-directory', 'alpha.txt');
      const moved = '/new/place/alpha.txt';
      const hashes = [attributeDefinitionHash(city!, hashText), attributeDefinitionHash(stars!, hashText)];
      await log.saveRecord({ source: gone, contentHash: hashText(content), values: { city: 'Paris', stars: 3 }, evidence: [evidence('city', 'Paris'), evidence('stars', 3)], issues: [], attributeHashes: hashes });
      const following = await followingMovedDocuments(store, log, { table: 'hotels', documents: [{ source: moved, read: async () => content }] });

      // Hold the store's queue, and queue a save of another document behind it: its transaction now waits with room for more.
      let release!: () => void;
      const held = store.exclusive(() => new Promise<void>((resolve) => { release = resolve; }));
      const other = log.saveRecord({ source: '/new/place/bravo.txt', contentHash: 'b', values: { city: 'Rome', stars: 4 }, evidence: [], issues: [], attributeHashes: hashes });
      expect(await following.followMoved!(moved, hashText(content))).toMatchObject({ source: moved, status: 'done' });
      // The run then saves only a re-extracted attribute of the moved document.
      const partial: StoredRecord = { source: moved, contentHash: hashText(content), values: { stars: 5 }, evidence: [evidence('stars', 5)], issues: [], attributeHashes: hashes, onlyAttributes: ['stars'] };
      const saved = log.saveRecord(partial);
      release();
      await Promise.all([held, other, saved, following.settled()]);

      const rows = (await store.connection.runAndReadAll('SELECT _source, city, stars FROM hotels ORDER BY _source')).getRowsJS().map((row) => row.map((cell) => (typeof cell === 'bigint' ? Number(cell) : cell)));
      expect(rows).toEqual([['/new/place/alpha.txt', 'Paris', 5], ['/new/place/bravo.txt', 'Rome', 4]]);
      const stored = (await store.connection.runAndReadAll("SELECT source, attribute, value FROM srag_evidence WHERE table_name = 'hotels' ORDER BY source, attribute")).getRowsJS();
      expect(stored).toEqual([[moved, 'city', 'Paris'], [moved, 'stars', '5']]);
      expect([...(await log.logEntries([gone, moved])).keys()]).toEqual([moved]);
      expect(following.moved).toEqual([{ from: gone, to: moved }]);
    } finally {
      store.close();
    }
  });
});
