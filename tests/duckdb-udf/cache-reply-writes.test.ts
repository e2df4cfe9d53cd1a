import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CachedResponse } from '../../core/index.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { writeCacheEntries, type CacheWrite } from '../../node/duckdb/store/store-writes.ts';
import { recordStatements } from '../helpers/record-statements.ts';

// The replies srag ask, srag eval, srag serve and the schema commands keep as they arrive: written
// together when they arrive together (one statement, one commit), a few through bound parameters
// and many through one JSON text, with the same rows either way.

const database = () => join(mkdtempSync(join(tmpdir(), 'srag-cache-writes-')), 'srag.duckdb');
const reply = (text: string, extra: Partial<CachedResponse> = {}): CachedResponse => ({ text, model: 'gpt-4o-mini', usage: { promptTokens: 120, completionTokens: 30 }, ...extra });

const cacheInserts = (statements: string[]) => statements.filter((sql) => /INSERT INTO srag_cache/.test(sql));

describe('srag_cache writes of replies kept as they arrive', () => {
  it('writes the replies kept at the same time in one statement, each on disk when its write resolves', async () => {
    const path = database();
    let store = await SragStore.open(path);
    try {
      const statements = recordStatements(store);
      const cache = store.responseCache();
      await Promise.all(['a', 'b', 'c', 'd', 'e'].map((key) => cache.set(key, reply(`the reply of ${key}`))));
      expect(cacheInserts(statements)).toHaveLength(1);
      // One kept after those: a statement of its own.
      await cache.set('f', reply('the reply of f'));
      expect(cacheInserts(statements)).toHaveLength(2);
    } finally {
      store.close();
    }
    store = await SragStore.open(path);
    try {
      for (const key of ['a', 'b', 'c', 'd', 'e', 'f']) expect((await store.responseCache().get(key))?.text).toBe(`the reply of ${key}`);
    } finally {
      store.close();
    }
  });

  it('gives every reply of a failed statement the store\'s error, and writes the next ones', async () => {
    const store = await SragStore.open(database());
    try {
      const run = store.connection.run.bind(store.connection);
      let failing = true;
      store.connection.run = (sql, ...rest) => (failing && /INSERT INTO srag_cache/.test(sql) ? Promise.reject(new Error('IO Error: No space left on device')) : run(sql, ...rest));
      const cache = store.responseCache();
      const settled = await Promise.allSettled(['a', 'b', 'c'].map((key) => cache.set(key, reply(key))));
      for (const outcome of settled) {
        expect(outcome.status).toBe('rejected');
        expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'STORE_FAILED', message: expect.stringContaining('No space left on device') });
      }
      failing = false;
      await cache.set('d', reply('d'));
      expect((await cache.get('d'))?.text).toBe('d');
      expect(await cache.get('a')).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it('writes the same rows through parameters (a few replies) as through one JSON text (many), keeping the first reply of a key', async () => {
    // A reply already there, a key twice, a reply without endpoint and one with, text beyond ASCII,
    // and a lone surrogate in a key (both ways make it U+FFFD, as a bound text is).
    const entries = (count: number): CacheWrite[] => [
      { key: 'held', response: reply('a second reply for a held key'), purpose: 'extraction' },
      { key: 'twice', response: reply('first of twice', { endpoint: 'https://api.openai.com/v1', requestKey: 'r-twice' }), purpose: null },
      { key: 'twice', response: reply('second of twice'), purpose: null },
      { key: 'lone \ud800 surrogate', response: reply('Hôtel Lumière — 東京 😀', { usage: { promptTokens: 0, completionTokens: 2 ** 40 } }), purpose: 'schema' },
      ...Array.from({ length: count }, (_, index): CacheWrite => ({ key: `more ${index}`, response: reply(`more ${index}`), purpose: null })),
    ];
    const rows = async (count: number, expectedShape: RegExp) => {
      const store = await SragStore.open(database());
      try {
        await writeCacheEntries(store.connection, [{ key: 'held', response: reply('the held reply'), purpose: 'extraction' }]);
        const statements = recordStatements(store);
        await writeCacheEntries(store.connection, entries(count));
        expect(cacheInserts(statements)).toHaveLength(1);
        expect(cacheInserts(statements)[0]).toMatch(expectedShape);
        const kept = (await store.connection.runAndReadAll('SELECT key, model, prompt_tokens, completion_tokens, purpose, endpoint, request_key FROM srag_cache ORDER BY key')).getRowsJS();
        const texts = await Promise.all(kept.map(async ([key]) => (await store.responseCache().get(String(key)))?.text));
        return kept.map((row, index) => [...row.map(String), texts[index]]);
      } finally {
        store.close();
      }
    };
    const few = await rows(0, /VALUES/);
    const many = await rows(40, /from_json/);
    expect(many.filter(([key]) => !key!.startsWith('more '))).toEqual(few);
    expect(many).toHaveLength(few.length + 40);
    expect(few).toEqual([
      ['held', 'gpt-4o-mini', '120', '30', 'extraction', 'null', 'null', 'the held reply'],
      ['lone \ufffd surrogate', 'gpt-4o-mini', '0', String(2 ** 40), 'schema', 'null', 'null', 'Hôtel Lumière — 東京 😀'],
      ['twice', 'gpt-4o-mini', '120', '30', 'null', 'https://api.openai.com/v1', 'r-twice', 'first of twice'],
    ]);
  });
});
