import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { IngestionLogCopy } from '../../node/sql-functions/llm-bridge/ingestion-log-copy.ts';
import { writeLogEntries } from '../../node/duckdb/store/store-writes.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { createSynchronousTableExport } from '../../node/sql-functions/table-functions/synchronous-table-export.ts';

const key = 'srag_extract:hotels:0123456789ab';

describe("the export of srag_extract's ingestion log for the documents a scan names", () => {
  it("writes one line per stored entry of those documents, a done one with its row's values typed as the row holds them", async () => {
    const directory = mkdtempSync(join(tmpdir(), 'srag-export-log-'));
    const store = await SragStore.open(join(directory, 'log.duckdb'));
    const tableExport = await createSynchronousTableExport(store.instance);
    try {
      const { connection } = store;
      await writeLogEntries(connection, key, [
        { source: '/docs/a.md', contentHash: 'ha', status: 'done', error: null },
        { source: '/docs/b.md', contentHash: 'hb', status: 'failed', error: 'the model timed out' },
        // Changed since its row was written: the row is of another version, so no values.
        { source: '/docs/c.md', contentHash: 'hc-new', status: 'done', error: null },
        { source: '/docs/not-asked.md', contentHash: 'hn', status: 'done', error: null },
      ]);
      // The same document under another schema is not this schema's.
      await writeLogEntries(connection, 'srag_extract:other:0123456789ab', [{ source: '/docs/b.md', contentHash: 'hb', status: 'done', error: null }]);
      await connection.run(`CREATE TABLE srag_extract.hotels_0123456789ab (hotel_name VARCHAR, star_rating BIGINT, price DOUBLE, has_pool BOOLEAN, opened DATE, manager VARCHAR, _source VARCHAR, _content_hash VARCHAR);
        INSERT INTO srag_extract.hotels_0123456789ab VALUES ('Amber', 4, 120.5, true, DATE '1999-12-31', NULL, '/docs/a.md', 'ha'), ('Cedar', 2, 80, false, NULL, 'Eva', '/docs/c.md', 'hc-old'),
          ('Not asked', 1, 1, true, NULL, NULL, '/docs/not-asked.md', 'hn')`);
      const file = join(directory, 'log.json');
      const copy = new IngestionLogCopy(async (sources) => {
        tableExport.exportIngestionLog(key, sources, file);
        return readFileSync(file, 'utf8').split('\n');
      });
      await copy.load(['/docs/a.md', '/docs/b.md', '/docs/c.md', '/docs/new.md']);
      expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
      expect(copy.get('/docs/a.md')).toEqual({
        source: '/docs/a.md', contentHash: 'ha', status: 'done', error: null,
        values: { hotel_name: 'Amber', star_rating: 4, price: 120.5, has_pool: true, opened: '1999-12-31', manager: null },
      });
      expect(copy.get('/docs/b.md')).toEqual({ source: '/docs/b.md', contentHash: 'hb', status: 'failed', error: 'the model timed out' });
      expect(copy.get('/docs/c.md')).toBeUndefined();
      expect(copy.get('/docs/new.md')).toBeUndefined();
      expect([...copy.view().keys()].sort()).toEqual(['/docs/a.md', '/docs/b.md']);

      // The whole log of the key (the bridge reads it so once a scan reads row by row): every entry, no other key's.
      tableExport.exportIngestionLog(key, null, file);
      const whole = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { source: string; record: { hotel_name: string } | null });
      expect(whole.map((entry) => entry.source).sort()).toEqual(['/docs/a.md', '/docs/b.md', '/docs/c.md', '/docs/not-asked.md']);
      expect(whole.find((entry) => entry.source === '/docs/not-asked.md')!.record).toMatchObject({ hotel_name: 'Not asked' });

      // A log kept by a version of srag that kept no record table: its entries without values.
      await connection.run('DROP TABLE srag_extract.hotels_0123456789ab');
      tableExport.exportIngestionLog(key, ['/docs/a.md', '/docs/b.md'], file);
      expect(readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line)).sort((left, right) => left.source.localeCompare(right.source))).toEqual([
        { source: '/docs/a.md', content_hash: 'ha', status: 'done', error: null, record: null },
        { source: '/docs/b.md', content_hash: 'hb', status: 'failed', error: 'the model timed out', record: null },
      ]);
      tableExport.exportIngestionLog(key, null, file);
      expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(4);
    } finally {
      tableExport.close();
      store.close();
    }
  });

  it('leaves no transaction open after an export, so that writes after it can be checkpointed and no write-ahead log stays behind', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'srag-export-log-'));
    const path = join(directory, 'log.duckdb');
    const store = await SragStore.open(path);
    const tableExport = await createSynchronousTableExport(store.instance);
    const { connection } = store;
    try {
      await writeLogEntries(connection, key, Array.from({ length: 200 }, (_, index) => ({ source: `/docs/${index}.md`, contentHash: `h${index}`, status: 'done' as const, error: null })));
      await connection.run('CHECKPOINT');
      tableExport.exportIngestionLog(key, ['/docs/1.md'], join(directory, 'log.json'));
      // What a move does after the scan's export: the log's key column rewritten.
      await connection.run("UPDATE srag_ingestion_log SET source = replace(source, '/docs/', '/archive/')");
      let checkpoint: string | undefined = 'not tried';
      // The export's result is fetched off the thread: give it a moment, a bounded one.
      for (let attempt = 0; attempt < 20 && checkpoint !== undefined; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        checkpoint = await connection.run('CHECKPOINT').then(() => undefined, (error: Error) => error.message);
      }
      expect(checkpoint).toBeUndefined();
      expect(existsSync(`${path}.wal`)).toBe(false);
    } finally {
      tableExport.close();
      store.close();
    }
  });
});
