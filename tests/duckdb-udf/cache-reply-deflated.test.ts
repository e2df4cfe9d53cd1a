import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { storeTablesSql } from '../../node/duckdb/store/store-tables.ts';

const reply = (text: string) => ({ text, model: 'gpt-4o-mini', usage: { promptTokens: 120, completionTokens: 30 } });
const database = () => join(mkdtempSync(join(tmpdir(), 'srag-deflated-')), 'srag.duckdb');
/** A reply as a model gives it: JSON with a quote per value, repeated keys, text beyond ASCII. */
const replyText = JSON.stringify({ records: Array.from({ length: 10 }, (_, index) => ({
  id: String(index + 1), hotel_name: { value: `Hôtel Lumière ${index}`, quote: `Hôtel Lumière ${index} — 東京` }, price_per_night: { value: '$137', quote: 'Price per night: $137 😀' },
})) });

describe('srag_cache keeps each reply deflated', () => {
  it('writes a new reply deflated, with no plain text beside it, and serves its text back exactly', async () => {
    const path = database();
    let store = await SragStore.open(path);
    try {
      await store.responseCache('extraction').set('k1', reply(replyText));
      const [response, deflatedBytes, textBytes] = (await store.connection.runAndReadAll(
        "SELECT response, octet_length(response_deflated), $1 FROM srag_cache WHERE key = 'k1'", [String(Buffer.byteLength(replyText))])).getRowsJS()[0]!;
      expect(response).toBeNull();
      expect(Number(deflatedBytes)).toBeLessThan(Number(textBytes) / 3);
    } finally {
      store.close();
    }
    store = await SragStore.open(path);
    try {
      expect((await store.responseCache().get('k1'))?.text).toBe(replyText);
    } finally {
      store.close();
    }
  });

  it("looks up keys by srag_cache's key column alone, and reads the replies only of the keys it holds", async () => {
    const store = await SragStore.open(database());
    try {
      await store.responseCache('extraction').set('held', reply(replyText));
      const statements: string[] = [];
      const read = store.connection.runAndReadAll.bind(store.connection);
      store.connection.runAndReadAll = (sql, ...rest) => {
        statements.push(sql);
        return read(sql, ...rest);
      };
      // A first run's lookups: none of the keys is there, and no reply is read.
      expect(await Promise.all([store.responseCache().get('absent 1'), store.responseCache().get('absent 2')])).toEqual([undefined, undefined]);
      expect(statements.filter((sql) => /FROM srag_cache/.test(sql))).not.toHaveLength(0);
      expect(statements.filter((sql) => /response/.test(sql))).toEqual([]);
      // A key that is there: its reply is read and served.
      expect((await store.responseCache().get('held'))?.text).toBe(replyText);
      expect(statements.filter((sql) => /response/.test(sql))).toHaveLength(1);
    } finally {
      store.close();
    }
  });

  it('serves the plain replies of a file an older srag made and writes its new replies deflated', async () => {
    const path = database();
    const instance = await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run(storeTablesSql);
    // srag_cache as an older srag made it: the reply's text in `response NOT NULL`, no deflated column.
    await connection.run('DROP TABLE srag_cache');
    await connection.run(`CREATE TABLE srag_cache (key VARCHAR PRIMARY KEY, model VARCHAR NOT NULL, response VARCHAR NOT NULL, prompt_tokens BIGINT NOT NULL,
      completion_tokens BIGINT NOT NULL, created_at TIMESTAMP DEFAULT current_timestamp, purpose VARCHAR, endpoint VARCHAR, request_key VARCHAR)`);
    await connection.run("INSERT INTO srag_cache (key, model, response, prompt_tokens, completion_tokens, purpose, endpoint, request_key) VALUES ('old', 'gpt-4o-mini', 'an older reply', 10, 3, 'extraction', 'https://api.openai.com/v1', 'old')");
    connection.closeSync();
    instance.closeSync();

    const store = await SragStore.open(path);
    try {
      expect((await store.responseCache().get('old'))?.text).toBe('an older reply');
      await store.responseCache('extraction').set('new', reply(replyText));
      expect((await store.responseCache().get('new'))?.text).toBe(replyText);
      expect((await store.connection.runAndReadAll("SELECT key, response IS NULL, response_deflated IS NULL FROM srag_cache ORDER BY key")).getRowsJS())
        .toEqual([['new', true, false], ['old', false, true]]);
    } finally {
      store.close();
    }
  });
});
