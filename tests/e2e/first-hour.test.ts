import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { askCommand } from '../../node/cli/ask-command.ts';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { schemaCommand } from '../../node/cli/schema-command.ts';
import { whyCommand } from '../../node/cli/why-command.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { runSrag } from '../helpers/run-srag.ts';

// What a new user meets walking the README on a fresh clone (issue 41), over one database shaped as
// the README's sections leave it: the hotels, the guesthouses with their rooms (another table with
// a price_per_night column), and the World Cups ingested while the stand-in knew only the other two
// samples, so that every one of their documents failed. Commands run in-process; the lock test
// starts a real `srag serve`, since its subject is another process holding the file.

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-first-hour-'));
const database = join(workDirectory, 'srag.duckdb');
const hotelPages = ['amber-arch-hotel.md', 'amber-harbour-boutique-hotel.html', 'cobalt-tower-hotel.txt', 'olive-square-hotel.txt'].map((page) => `examples/hotels/docs/${page}`);

const ingest = (documents: string[], schema: string) =>
  runCommandInProcess((signal) => ingestCommand(documents, { schema, db: database, evidence: true }, signal), { database });

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels', 'examples/guesthouses'] });
  vi.stubEnv('OPENAI_BASE_URL', standIn.url);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-a-real-key-0000');
  expect((await ingest(hotelPages, 'examples/hotels/schema.json')).status).toBe(0);
  expect((await ingest(['examples/guesthouses/docs/casa-azul-guesthouse.md'], 'examples/guesthouses/schema.json')).status).toBe(0);
  const worldCups = await ingest(['examples/worldcup/docs/men-2014-tournament.txt', 'examples/worldcup/docs/men-2018-tournament.txt'], 'examples/worldcup/schema.json');
  expect(worldCups.stdout).toMatch(/^world_cup_tournament: 0 done, 2 failed/);
}, 60_000);
afterAll(async () => {
  vi.unstubAllEnvs();
  await standIn?.close();
});

describe('a new user\'s first hour', () => {
  it('srag why finds a hotel\'s price in the hotels table, though the guesthouses\' rooms have a price_per_night too', async () => {
    const run = await runCommandInProcess(() => whyCommand('amber-arch-hotel.md', 'price_per_night', { db: database }), { database });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^examples\/hotels\/docs\/amber-arch-hotel\.md · price_per_night = 470 \(supported\)\nmodel returned: USD 470\.00\n/);
  });

  it('srag ask over a table whose every document failed says the table has no rows, and spends no model call', async () => {
    standIn.reset();
    const run = await runCommandInProcess((signal) => askCommand(['What is the average number of goals scored per World Cup?'], { db: database, table: 'world_cup_tournament' }, signal), { database });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^srag: table world_cup_tournament has no rows to answer from — none of its documents has a record yet \(they failed, or were never extracted\)/);
    expect(standIn.requests).toHaveLength(0);
  });

  it('srag ask --extend-schema says so when the table already holds what the question needs', async () => {
    const run = await runCommandInProcess((signal) => askCommand(['Does any hotel in Lisbon offer an airport shuttle?'], { db: database, table: 'hotels', extendSchema: true, yes: true }, signal), { database });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('note: hotels already holds what the question needs: --extend-schema added no attribute and extracted nothing\n');
  });

  it('srag schema says why it made fewer model calls than rounds: a round that asks what an earlier one asked is answered from the cache', async () => {
    const output = join(workDirectory, 'schema.json');
    const run = await runCommandInProcess((signal) => schemaCommand(['examples/hotels/docs'], {
      questions: 'examples/hotels/questions.jsonl', samples: 12, questionCount: 10, iterations: 4, output, db: join(workDirectory, 'schema.duckdb'),
    }, signal));
    expect(run.status, run.stderr).toBe(0);
    // The stand-in gives round 2 the whole schema, so round 4 sends exactly what round 3 sent.
    expect(run.stderr).toMatch(/\n3 model calls, \d+ prompt \+ \d+ completion tokens; 1 round answered from the response cache, since it repeated a request already answered/);
    expect(JSON.parse(readFileSync(output, 'utf8')).title).toBe('Hotels');
  });

  it('srag schema without a model configured stops before it creates a database that would hold nothing', async () => {
    vi.stubEnv('OPENAI_BASE_URL', '');
    vi.stubEnv('OPENAI_API_KEY', '');
    try {
      const fresh = join(workDirectory, 'never-made.duckdb');
      const run = await runCommandInProcess((signal) => schemaCommand(['examples/hotels/docs'], {
        questions: 'examples/hotels/questions.jsonl', samples: 12, questionCount: 10, iterations: 4, db: fresh,
      }, signal), { database: fresh });
      expect(run.status).toBe(3);
      expect(run.stderr).toMatch(/^srag: no LLM endpoint is configured — set OPENAI_API_KEY/);
      expect(existsSync(fresh)).toBe(false);
    } finally {
      vi.stubEnv('OPENAI_BASE_URL', standIn.url);
      vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-a-real-key-0000');
    }
  });

  it('srag why while srag serve has the database open names the server, its address and the routes that answer the same', async () => {
    const port = await freePort();
    let server: ChildProcess | undefined;
    const listening = new Promise<void>((resolve) => {
      void runSrag(['serve', '--db', database, '--port', String(port)], {
        environment: { OPENAI_BASE_URL: standIn.url },
        onSpawn: (child) => {
          server = child;
          child.stderr!.on('data', (chunk: Buffer) => { if (chunk.toString().includes('srag serve: http://')) resolve(); });
        },
      });
    });
    try {
      await listening;
      const run = await runCommandInProcess(() => whyCommand('amber-arch-hotel.md', 'price_per_night', { db: database }), { database });
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`— srag serve (process ${server!.pid}) has it open, and its HTTP API at http://127.0.0.1:${port}/ answers the same (GET /stats, GET /why?document=…&attribute=…, POST /query`);
    } finally {
      server?.kill('SIGINT');
      await new Promise((resolve) => server?.once('close', resolve));
    }
  });
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
