import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordSchema, type DocumentSource } from '../../core/index.ts';
import { adoptRelativeSources } from '../../node/duckdb/store/adopt-relative-sources.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';

const schema = parseRecordSchema({ title: 'Hotel', properties: { city: { type: 'string', description: 'The city.' } } });

/** A table whose log holds `relative` entries with paths relative to another directory, and one canonical entry. */
async function storeWithLog(relative: number) {
  const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-log-')), 'log.duckdb'));
  await store.registerTable('hotels', schema);
  await store.connection.run(`INSERT INTO srag_ingestion_log (table_name, source, content_hash, status, error, attempts, updated_at)
    SELECT 'hotels', 'synthetic/' || i || '.txt', 'h' || i, 'done', NULL, 1, current_timestamp FROM range(${relative}) t(i)`);
  await store.extractionStore('hotels', schema).saveLogEntry({ source: '/docs/a.txt', contentHash: 'ha', status: 'failed', error: 'unreadable' });
  return store;
}

describe('the ingestion log at scale', () => {
  it('reads only the entries of the documents a run names', async () => {
    const store = await storeWithLog(10_000);
    try {
      const entries = await store.extractionStore('hotels', schema).logEntries(['/docs/a.txt', 'synthetic/7.txt', '/docs/new.txt']);
      expect([...entries.keys()].sort()).toEqual(['/docs/a.txt', 'synthetic/7.txt']);
      expect(entries.get('/docs/a.txt')).toMatchObject({ status: 'failed', error: 'unreadable' });
      expect((await store.extractionStore('hotels', schema).logEntries()).size).toBe(10_001);
    } finally {
      store.close();
    }
  });

  it('moves the relative entries that name a document of the run and counts the rest without reading them', async () => {
    const store = await storeWithLog(10_000);
    try {
      const documents: DocumentSource[] = [{ source: '/work/synthetic/3.txt', label: 'synthetic/3.txt', read: async () => '' }];
      expect(await adoptRelativeSources(store, 'hotels', documents)).toBe(9_999);
      const moved = await store.extractionStore('hotels', schema).logEntries(['/work/synthetic/3.txt', 'synthetic/3.txt']);
      expect([...moved.keys()]).toEqual(['/work/synthetic/3.txt']);
    } finally {
      store.close();
    }
  });
});
