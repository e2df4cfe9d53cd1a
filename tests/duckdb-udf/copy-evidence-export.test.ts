import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyEvidenceExportSql } from '../../node/duckdb/sandbox/sandbox-table-source.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { writeLogEntries } from '../../node/duckdb/store/store-writes.ts';
import { withLiterals } from '../helpers/with-literals.ts';

describe('the evidence behind a copy of srag_extract\'s rows', () => {
  it('keys each row to its document\'s evidence by content hash, and calls it unknown (NULL) where documents with that text disagree', async () => {
    const store = await SragStore.open(join(mkdtempSync(join(tmpdir(), 'srag-copy-evidence-')), 'copy.duckdb'));
    try {
      const key = 'srag_extract:Hotel:test';
      const { connection } = store;
      // Two files with the same text whose prices were judged differently, and a third on its own.
      await writeLogEntries(connection, key, [
        { source: '/abs/a.md', contentHash: 'same', status: 'done', error: null },
        { source: '/abs/b.md', contentHash: 'same', status: 'done', error: null },
        { source: '/abs/c.md', contentHash: 'own', status: 'done', error: null },
      ]);
      await connection.run(`INSERT INTO srag_evidence (table_name, source, attribute, value, raw, quote, status, reason) VALUES
        ('${key}', '/abs/a.md', 'price', '100', '100', 'q', 'supported', NULL),
        ('${key}', '/abs/b.md', 'price', '100', '100', 'q', 'unsupported', 'r'),
        ('${key}', '/abs/a.md', 'city', 'Rome', 'Rome', 'q', 'supported', NULL),
        ('${key}', '/abs/b.md', 'city', 'Rome', 'Rome', 'q', 'supported', NULL),
        ('${key}', '/abs/c.md', 'price', '90', '90', 'q', 'missing', NULL)`);
      await connection.run(`CREATE TABLE copied AS SELECT * FROM (VALUES ('docs/a.md', 'same'), ('docs/c.md', 'own'), ('docs/gone.md', 'changed since')) v(filename, content_hash)`);
      // The export's parameters: the schema key, the attributes, (the file, unused here) and the copy.
      const rows = (await connection.runAndReadAll(`${withLiterals(copyEvidenceExportSql, [key, '[price, city]', null, 'copied'])} ORDER BY 1, 2`)).getRowsJS();
      expect(rows).toEqual([
        ['docs/a.md', 'city', 'supported'],
        ['docs/a.md', 'price', null],
        ['docs/c.md', 'price', 'missing'],
      ]);
    } finally {
      store.close();
    }
  });
});
