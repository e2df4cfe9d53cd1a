import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { whyCommand } from '../../node/cli/why-command.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { documentMarkers } from '../helpers/llm-stand-in/respond-extract-record.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// Issue 42, item 10: `srag why` and the `failed:` lines of an ingest printed the terminal escape
// sequences of documents and file names raw (a document could clear the screen, retitle the window
// or hide text); `srag sql` already showed them as \u{…}. One function escapes them all.

/** Clears the screen, retitles the window (OSC 0 … BEL), and a CSI in its 8-bit form. */
const escapes = '\u001b[2J\u001b]0;owned\u0007\u009b31m';
const shown = '\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{9b}31m';
let standIn: LlmStandIn;
const directory = mkdtempSync(join(tmpdir(), 'srag-escapes-'));
const database = join(directory, 'escapes.duckdb');
const hotel = join(directory, `amber${escapes}.md`);
const failing = join(directory, `failing${escapes}.md`);
let ingested: Awaited<ReturnType<typeof runCommandInProcess>>;

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  vi.stubEnv('OPENAI_BASE_URL', standIn.url);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-a-real-key-0000');
  vi.stubEnv('SRAG_MAX_RETRIES', '0');
  copyFileSync(join(repositoryRoot, 'examples/hotels/docs/amber-arch-hotel.md'), hotel);
  writeFileSync(failing, `${documentMarkers.alwaysServerError}\n`);
  ingested = await runCommandInProcess((signal) => ingestCommand([directory], { schema: join(repositoryRoot, 'examples/hotels/schema.json'), db: database, evidence: true }, signal));
}, 60_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await standIn?.close();
});

describe('text from documents and file names on the terminal', () => {
  it('shows the escape sequences of a failed document\'s file name escaped in its failed: line', () => {
    expect(ingested.status).toBe(1);
    const failedLines = ingested.stderr.split('\n').filter((line) => line.startsWith('failed: '));
    expect(failedLines).toHaveLength(1);
    expect(failedLines[0]).toContain(`failing${shown}.md`);
    expect(ingested.stderr).not.toMatch(/[\u001b\u0007\u009b]/);
  });

  it('shows srag why\'s file name, value, model reply, quote and reason escaped', async () => {
    // A quote is a span of the document and the raw value the model's text: either may carry escapes.
    const store = await SragStore.open(database);
    try {
      await store.exclusive((connection) => connection.run(
        `UPDATE srag_evidence SET quote = quote || $1, raw = raw || $1, reason = 'kept' || $1 WHERE attribute = 'hotel_name'`, [escapes]));
    } finally {
      store.close();
    }
    const why = await runCommandInProcess(() => whyCommand('amber', 'hotel_name', { db: database }));
    expect(why.status, why.stderr).toBe(0);
    expect(why.stdout).not.toMatch(/[\u001b\u0007\u009b]/);
    const lines = why.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^.*amber${shown.replace(/[\\[\]{}()]/g, '\\$&')}\\.md · hotel_name = `));
    expect(lines.find((line) => line.startsWith('model returned: '))).toContain(shown);
    expect(lines.find((line) => line.startsWith('quote: '))).toContain(`${shown}”`);
    expect(lines.find((line) => line.startsWith('reason: '))).toBe(`reason: kept${shown}`);
  });
});
