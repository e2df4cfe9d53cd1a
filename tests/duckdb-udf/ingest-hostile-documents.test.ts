import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { buildPdf } from '../helpers/build-pdf.ts';
import { buildZip, deflatedZeros } from '../helpers/build-zip.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { documentMarkers } from '../helpers/llm-stand-in/respond-extract-record.ts';
import { queryDatabaseFile } from '../helpers/query-database-file.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';

// The review's repro: one document nested thousands deep took `srag ingest` down with "Maximum call
// stack size exceeded", exit 1 and 0 rows. Now each hostile document is read or fails alone.

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-hostile-documents-'));
const docs = join(workDirectory, 'docs');
const good = ['amber-arch-hotel.md', 'amber-harbour-boutique-hotel.html', 'amber-lantern-hotel.html'];

beforeAll(async () => {
  mkdirSync(docs);
  for (const name of good) copyFileSync(join('examples/hotels/docs', name), join(docs, name));
  const unstated = `${documentMarkers.noValues}: a page that states no hotel`;
  writeFileSync(join(docs, 'nested.html'), `${'<div>'.repeat(5000)}${unstated}${'</div>'.repeat(5000)}`);
  writeFileSync(join(docs, 'nested.json'), `${'['.repeat(3000)}${JSON.stringify(unstated)}${']'.repeat(3000)}`);
  writeFileSync(join(docs, 'bomb.docx'), buildZip([{ name: 'word/document.xml', deflated: deflatedZeros(1024), declaredSize: 1024 * 1_048_576 }]));
  writeFileSync(join(docs, 'long.pdf'), buildPdf([1, 2, 3].map((page) => ({ texts: [{ x: 72, y: 700, text: `Page ${page} of a long report.` }] }))));
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  vi.stubEnv('OPENAI_BASE_URL', standIn.url);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-a-real-key-0000');
  vi.stubEnv('SRAG_MAX_PAGES', '2');
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await standIn?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('srag ingest over good documents and hostile ones', () => {
  it('extracts the good ones, reads the nested ones, fails the others alone in one line each, and exits as for a failed document', async () => {
    const database = join(workDirectory, 'hotels.duckdb');
    const run = await runCommandInProcess((signal) => ingestCommand([docs], { schema: 'examples/hotels/schema.json', db: database, evidence: true }, signal));
    expect(run.status, run.stderr).toBe(1);
    expect(run.stderr).not.toMatch(/unexpected error|Maximum call stack/);
    expect(run.stdout).toMatch(/^hotels: 5 done .*2 failed/m);
    const failed = run.stderr.split('\n').filter((line) => line.startsWith('failed: '));
    expect(failed.sort()).toEqual([
      expect.stringMatching(/^failed: .*bomb\.docx: .*bomb\.docx inflates to 1,024 MB when opened, more than the 16 MB srag opens of one document$/),
      expect.stringMatching(/^failed: .*long\.pdf: .*long\.pdf has 3 pages, more than the 2 srag reads of one document$/),
    ]);
    const log = await queryDatabaseFile(database, "SELECT regexp_extract(source, '[^/]+$'), status FROM srag_ingestion_log ORDER BY 1");
    expect(log).toEqual([
      ['amber-arch-hotel.md', 'done'], ['amber-harbour-boutique-hotel.html', 'done'], ['amber-lantern-hotel.html', 'done'],
      ['bomb.docx', 'failed'], ['long.pdf', 'failed'], ['nested.html', 'done'], ['nested.json', 'done'],
    ]);
    const hotels = await queryDatabaseFile(database, 'SELECT hotel_name FROM hotels WHERE hotel_name IS NOT NULL ORDER BY 1');
    expect(hotels).toEqual([['Amber Arch Hotel'], ['Amber Harbour Boutique Hotel'], ['Amber Lantern Hotel']]);
  });
});
