import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSragDatabase } from '../../node/index.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// In this test DuckDB runs on the test's own thread, which a scan blocks; the stand-in therefore
// serves from a child process rather than from this thread's event loop.
let standInProcess: ChildProcess;
let standInUrl: string;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-library-'));
const scan = "SELECT filename, hotel_name, star_rating, _error FROM srag_extract('examples/hotels/docs/amber*', schema := 'examples/hotels/schema.json') ORDER BY filename";

beforeAll(async () => {
  standInProcess = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/llm-stand-in/serve.ts', '--corpus', 'examples/hotels', '--quiet'], { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = await new Promise<string>((resolve) => createInterface({ input: standInProcess.stdout! }).once('line', resolve));
  standInUrl = firstLine.replace(/^OPENAI_BASE_URL=/, '');
});
afterAll(() => {
  standInProcess.kill('SIGTERM');
});

describe('openSragDatabase, the library entry', () => {
  const path = join(workDirectory, 'library.duckdb');
  const environment = () => ({ OPENAI_BASE_URL: standInUrl, SRAG_CONCURRENCY: '4' });

  it('registers the srag functions on a DuckDB connection of the caller\'s thread', async () => {
    const database = await openSragDatabase(path, { environment: environment(), progress: false });
    try {
      const rows = (await database.connection.runAndReadAll(scan)).getRowsJS();
      expect(rows).toHaveLength(4);
      expect(rows[0]).toEqual(['examples/hotels/docs/amber-arch-hotel.md', 'Amber Arch Hotel', 4n, null]);
      // Four short pages, one call.
      expect(await database.usage()).toMatchObject([{ model: 'gpt-4o-mini', calls: 1, cacheHits: 0 }]);
      const another = await database.connect();
      const answer = (await another.runAndReadAll("CREATE TABLE amber AS " + scan.replace('SELECT filename, hotel_name, star_rating, _error', 'SELECT *') + "; SELECT answer FROM srag_ask('How many hotels are in Spain?', 'amber')")).getRowsJS();
      expect(answer).toEqual([['2']]);
    } finally {
      await database.close();
    }
  });

  it('keeps the records in the database, so the same SELECT in a new session makes no model call', async () => {
    const database = await openSragDatabase(path, { environment: environment(), progress: false });
    try {
      expect((await database.connection.runAndReadAll(scan)).getRowsJS()).toHaveLength(4);
      expect(await database.usage()).toEqual([]);
      await database.flush();
      const kept = (await database.connection.runAndReadAll(`SELECT (SELECT count(*) FROM srag_cache), (SELECT count(*) FROM srag_extract_schemas),
        (SELECT count(*) FROM srag_ingestion_log WHERE table_name LIKE 'srag_extract:hotels:%'), (SELECT count(*) FROM srag_journal),
        (SELECT sum(estimated_size) FROM duckdb_tables() WHERE schema_name = 'srag_extract')`)).getRowsJS();
      // Replies cached: the extraction's one and srag_ask's two.
      expect(kept).toEqual([[3n, 1n, 4n, 0n, 4n]]);
    } finally {
      await database.close();
    }
  });
});
