import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parseRecordSchema, type StoredRecord } from '../../core/index.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';

const schema = parseRecordSchema({ title: 'Guesthouse', properties: { city: { type: 'string', description: 'The city.' } } });

function record(source: string, city: string): StoredRecord {
  return {
    source, contentHash: `hash of ${source}`, values: { city }, issues: [], attributeHashes: ['a1'],
    evidence: [{ attribute: 'city', value: city, raw: city, quote: city, status: 'supported', reason: null }],
  };
}

/** How many transactions the store's connection commits from now on; `statements` holds when each statement was run. */
function countCommits(store: SragStore, statements: number[] = []): () => number {
  let commits = 0;
  const run = store.connection.run.bind(store.connection);
  store.connection.run = (sql, ...rest) => {
    statements.push(performance.now());
    if (sql === 'COMMIT') commits += 1;
    return run(sql, ...rest);
  };
  return () => commits;
}

async function count(store: SragStore, sql: string): Promise<number> {
  return Number((await store.connection.runAndReadAll(sql)).getRowsJS()[0]![0]);
}

describe('an ingest\'s group commit', () => {
  it('gathers replies that arrive one at a time into few commits, and commits a save that is waited for alone at once', async () => {
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-group-commit-')), 'srag.duckdb'));
    try {
      await store.registerTable('guesthouses', schema);
      const run = store.extractionStore('guesthouses', schema);
      await run.logEntries([]);
      const statements: number[] = [];
      const commits = countCommits(store, statements);

      // An endpoint that answers steadily: a reply every 25 ms, each with the two records of its call.
      // Each commit took the one reply that had arrived meanwhile (20 commits for 20 replies, or
      // nearly); one now starts no sooner than 100 ms after the last started.
      const saves: Array<Promise<void>> = [];
      const streaming = performance.now();
      for (let index = 0; index < 20; index += 1) {
        await run.responseCache.set(`key-${index}`, { text: `{"records":[${index}]}`, model: 'stand-in', usage: { promptTokens: 100, completionTokens: 20 }, endpoint: 'https://llm.example/v1', requestKey: `request-${index}` });
        saves.push(run.saveRecord(record(`/docs/${index}-a.md`, 'Porto')), run.saveRecord(record(`/docs/${index}-b.md`, 'Lisbon')));
        await sleep(25);
      }
      await Promise.all(saves);
      expect(commits()).toBeLessThanOrEqual(1 + Math.floor((performance.now() - streaming) / 100));
      expect(await count(store, 'SELECT count(*) FROM guesthouses')).toBe(40);
      expect(await count(store, 'SELECT count(*) FROM srag_ingestion_log')).toBe(40);

      // A save its caller waits for before the next (a document the run awaits): each commits at
      // once, not 100 ms after the last started. What is timed is how long after the call its
      // transaction's first statement ran: a few microtasks at once, the rest of the 100 ms
      // (less the last commit's duration) if it waited. Not the saves' wall time, which a loaded
      // machine's commits stretch past 100 ms each (CI: 1.24 s for the ten).
      await sleep(150);
      const before = commits();
      const waits: number[] = [];
      for (let index = 0; index < 10; index += 1) {
        const called = performance.now();
        const saved = run.saveRecord(record(`/docs/alone-${index}.md`, 'Braga'));
        await saved;
        waits.push(statements.find((time) => time >= called)! - called);
      }
      expect(commits() - before).toBe(10);
      expect(waits.sort((a, b) => a - b)[5]).toBeLessThan(20);
      expect(await count(store, 'SELECT count(*) FROM guesthouses')).toBe(50);
    } finally {
      store.close();
    }
    // Every reply reached srag_cache before the close: no journal is left for the next open.
    const reopened = await SragStore.open(store.path);
    try {
      expect(await count(reopened, 'SELECT count(*) FROM srag_cache')).toBe(20);
    } finally {
      reopened.close();
    }
  });
});
