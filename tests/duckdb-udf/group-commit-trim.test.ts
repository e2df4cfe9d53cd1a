import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRecordSchema } from '../../core/index.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { checkpointBufferCacheBytes, checkpointSoonBytes } from '../../node/duckdb/store/trim-buffer-cache.ts';

const schema = parseRecordSchema({ title: 'Hotel', properties: { city: { type: 'string', description: 'The city.' } } });

type Trimmer = (connection: unknown, options?: { bytes?: number; handBack?: boolean }) => Promise<void>;

describe("srag ingest's group commit and the checkpoint it may set off", () => {
  it('trims the buffer pool to its checkpoint size, handing freed memory back, before a commit whose journal is near the checkpoint threshold, and not before others', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'srag-commit-trim-')), 'trim.duckdb');
    const store = await SragStore.open(path);
    try {
      await store.registerTable('hotels', schema);
      // What the store asks of its trimmer, in order (the trim itself still runs).
      const calls: Array<{ bytes?: number; handBack?: boolean } | undefined> = [];
      const holder = store as unknown as { trimBufferCache: Trimmer };
      const trim = holder.trimBufferCache;
      holder.trimBufferCache = (connection, options) => {
        calls.push(options);
        return trim(connection, options);
      };
      const writes = store.extractionStore('hotels', schema);
      await writes.saveLogEntry({ source: '/docs/a.txt', contentHash: 'ha', status: 'failed', error: 'unreadable' });
      expect(calls).toEqual([undefined]);

      // A journal (the .wal) past the mark: rows of 13 kB, fewer than a row group, stay in it until a checkpoint.
      await store.connection.run('CREATE TABLE padding (text VARCHAR)');
      await store.connection.run("INSERT INTO padding SELECT repeat('x', 13000) || i FROM range(1000) r(i)");
      expect(statSync(`${path}.wal`).size).toBeGreaterThanOrEqual(checkpointSoonBytes);
      calls.length = 0;
      await writes.saveLogEntry({ source: '/docs/b.txt', contentHash: 'hb', status: 'failed', error: 'unreadable' });
      expect(calls).toEqual([{ bytes: checkpointBufferCacheBytes, handBack: true }, undefined]);
      expect((await writes.logEntries(['/docs/a.txt', '/docs/b.txt'])).size).toBe(2);
    } finally {
      store.close();
    }
  });
});
