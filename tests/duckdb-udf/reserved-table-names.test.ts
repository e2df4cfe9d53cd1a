import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importCommand } from '../../node/cli/import-command.ts';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// Issue 42, item 10: `srag ingest --table srag_serve_jobs` made a record table where srag serve keeps
// its jobs, and srag serve could not start on that database afterwards.

describe('a record table named like one of srag\'s own', () => {
  it('is refused by srag ingest in one line with the fix, before any database is made', async () => {
    const database = join(mkdtempSync(join(tmpdir(), 'srag-reserved-')), 'reserved.duckdb');
    for (const table of ['srag_serve_jobs', 'srag_evidence', 'SRAG_Cache', 'srag_anything']) {
      const run = await runCommandInProcess((signal) => ingestCommand([join(repositoryRoot, 'examples/hotels/docs/amber-arch-hotel.md')], {
        db: database, schema: join(repositoryRoot, 'examples/hotels/schema.json'), table, evidence: true,
      }, signal));
      expect(run.status, table).toBe(2);
      expect(run.stderr).toMatch(/^srag: "srag_\w+" is a name srag keeps for its own tables — choose another name with --table NAME\n$/);
    }
    expect(existsSync(database)).toBe(false);
  });

  it('is refused by srag import in one line with the fix', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'srag-reserved-import-'));
    const file = join(directory, 'rates.csv');
    writeFileSync(file, 'currency,rate\nEUR,1.08\n');
    const run = await runCommandInProcess(() => importCommand(file, { db: join(directory, 'import.duckdb'), table: 'srag_serve_jobs' }));
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('srag: "srag_serve_jobs" is a name srag keeps for its own tables — choose another name with --table NAME\n');
  });
});
