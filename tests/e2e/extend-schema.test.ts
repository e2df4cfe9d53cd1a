import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { askCommand } from '../../node/cli/ask-command.ts';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { readGoldQuestions, rowsMatchGold } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { queryDatabaseFile } from '../helpers/query-database-file.ts';
import { extractionCallCount, requestedAttributesPerDocument } from '../helpers/requested-attributes.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-extend-'));
const leftOut = ['has_pool', 'has_airport_shuttle', 'pets_allowed'];
const schemaWithoutThree = join(workDirectory, 'without-three.schema.json');
const needsLeftOut = readGoldQuestions('examples/hotels').filter((question) => leftOut.some((name) => question.sql.includes(name)));

/** Per document sent to the model, the attribute names its request asked for. */
const extractionRequests = () => requestedAttributesPerDocument(standIn.requests);

const ingest = (documents: string, database: string) =>
  runCommandInProcess((signal) => ingestCommand([documents], { schema: schemaWithoutThree, db: database, evidence: true }, signal));
const ask = (questions: string[], database: string, options: { extendSchema?: boolean; json?: boolean; dryRun?: boolean } = {}) =>
  runCommandInProcess((signal) => askCommand(questions, { db: database, ...options }, signal), { database });

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  vi.stubEnv('OPENAI_BASE_URL', standIn.url);
  vi.stubEnv('OPENAI_API_KEY', 'sk-test-not-a-real-key-0000');
  vi.stubEnv('SRAG_CONCURRENCY', '8');
  const schema = JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8'));
  for (const name of leftOut) delete schema.properties[name];
  writeFileSync(schemaWithoutThree, JSON.stringify(schema));
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await standIn.close();
});

describe('srag ask --extend-schema over a table ingested without three attributes', () => {
  const database = join(workDirectory, 'hotels.duckdb');

  it('answers every sample question that needs them exactly, back-filling each new attribute once and only it', async () => {
    expect(needsLeftOut.length).toBe(5);
    const ingested = await ingest('examples/hotels/docs/*', database);
    expect(ingested.status, ingested.stderr).toBe(0);
    // Without the flag: the missing attribute is named, with the command that adds it, and no answer from another column.
    const refused = await ask([needsLeftOut[0]!.question], database);
    expect(refused.status).toBe(7);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain(`needs an attribute the table "hotels" does not hold: has_airport_shuttle — add what it lacks, extracting only that from every document, with: srag ask '${needsLeftOut[0]!.question}' --extend-schema --db ${database}`);
    // --dry-run: the back-fill's estimate, with no extraction call and nothing added.
    standIn.reset();
    const dry = await ask([needsLeftOut[0]!.question], database, { extendSchema: true, dryRun: true, json: true });
    expect(dry.status, dry.stderr).toBe(0);
    const estimate = JSON.parse(dry.stdout);
    expect(estimate).toMatchObject({ table: 'hotels', added_attributes: ['has_airport_shuttle'], documents: 50, model: expect.any(String) });
    expect(extractionCallCount(standIn.requests)).toBe(0);
    expect((await ask([needsLeftOut[0]!.question], database, { extendSchema: true, dryRun: true })).stdout)
      .toMatch(/^hotels: would add has_airport_shuttle and back-fill 50 documents: about \d+ extraction calls?, [\d,]+ prompt \+ [\d,]+ completion tokens to .*; nothing was extracted \(dry run\)\n$/);
    standIn.reset();
    const run = await ask(needsLeftOut.map((question) => question.question), database, { extendSchema: true, json: true });
    expect(run.status, run.stderr).toBe(0);
    const results = run.stdout.trim().split('\n').map((line) => JSON.parse(line));
    const mismatches = needsLeftOut.filter((question, index) => !rowsMatchGold(results[index].rows, question.gold as never)).map((question) => question.question);
    expect(mismatches).toEqual([]);
    expect(results.map((result) => result.added_attributes)).toEqual([['has_airport_shuttle'], ['has_pool', 'pets_allowed'], [], [], []]);
    // At most one request per document and new attribute set (short documents share one), none for the questions after.
    const calls = results.map((result) => result.extraction_usage.calls);
    expect(calls.slice(2)).toEqual([0, 0, 0]);
    expect(calls[0]).toBeGreaterThan(0);
    expect(calls[0]).toBeLessThanOrEqual(50);
    expect(calls[1]).toBeLessThanOrEqual(50);
    expect(calls[0] + calls[1]).toBe(extractionCallCount(standIn.requests));
    expect(results.map((result) => result.extraction_usage.documents)).toEqual([50, 50, 0, 0, 0]);
    // The dry run's estimate is what the back-fill then sent: the same calls, prompt tokens within 25%.
    expect(estimate.calls).toBe(calls[0]);
    expect(Math.abs(estimate.prompt_tokens - results[0].extraction_usage.promptTokens)).toBeLessThanOrEqual(0.25 * results[0].extraction_usage.promptTokens);
    // Each back-fill request carries only the attributes added for its question: nothing the table had.
    const requested = extractionRequests();
    expect(requested.filter((names) => names.join() === 'has_airport_shuttle')).toHaveLength(50);
    expect(requested.filter((names) => names.join() === 'has_pool,pets_allowed')).toHaveLength(50);
    expect(requested).toHaveLength(100);
    expect(run.stderr).toContain('hotels: added has_airport_shuttle (boolean) for this question');
  });

  it('costs no extraction call when asked again, and an ingest with the old schema file keeps the new columns', async () => {
    standIn.reset();
    const again = await ask([needsLeftOut[1]!.question], database, { extendSchema: true, json: true });
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout), again.stdout).toMatchObject({ added_attributes: [], extraction_usage: { calls: 0 } });
    expect(extractionCallCount(standIn.requests)).toBe(0);
    const reingested = await ingest('examples/hotels/docs/*', database);
    expect(reingested.stdout).toMatch(/^hotels: 0 done, 0 failed, 50 unchanged/);
    expect(extractionCallCount(standIn.requests)).toBe(0);
  });
});

describe('the back-fill re-reads each row\'s document', () => {
  it('reports a changed and a missing document per row, keeping their values and leaving the new columns NULL with the reason', async () => {
    const documents = join(workDirectory, 'docs');
    for (const name of ['amber-arch-hotel.md', 'amber-harbour-boutique-hotel.html', 'amber-lantern-hotel.html', 'amber-quarter-inn.html', 'azure-residence-hotel.html']) {
      cpSync(join('examples/hotels/docs', name), join(documents, name));
    }
    const database = join(workDirectory, 'changed.duckdb');
    expect((await ingest(documents, database)).status).toBe(0);
    writeFileSync(join(documents, 'amber-arch-hotel.md'), `${readFileSync(join(documents, 'amber-arch-hotel.md'), 'utf8')}\nRenovated this year.\n`);
    rmSync(join(documents, 'amber-quarter-inn.html'));
    standIn.reset();
    vi.stubEnv('SRAG_CONFIRM_DOCUMENTS', '2');
    const run = await ask([needsLeftOut[0]!.question], database, { extendSchema: true, json: true });
    vi.stubEnv('SRAG_CONFIRM_DOCUMENTS', undefined);
    expect(run.status, run.stderr).toBe(0);
    // Without a terminal to ask on, a back-fill over the threshold prints its estimate and goes ahead.
    expect(run.stderr).toMatch(/the back-fill extracts 5 documents: about \d+ calls?, [\d,]+ prompt \+ [\d,]+ completion tokens to /);
    expect(run.stderr).toMatch(/not back-filled: .*amber-arch-hotel\.md: its document changed since the row was extracted/);
    expect(run.stderr).toMatch(/not back-filled: .*amber-quarter-inn\.html: its document cannot be read any more/);
    expect(extractionRequests()).toHaveLength(3);
    const rows = await queryDatabaseFile(database,
      `SELECT h.hotel_name IS NOT NULL, h.has_airport_shuttle, e.status, e.reason LIKE 'its document%' FROM hotels h JOIN srag_evidence e ON e.source = h._source AND e.attribute = 'has_airport_shuttle' WHERE h._source LIKE '%amber-arch-hotel.md' OR h._source LIKE '%amber-quarter-inn.html'`);
    expect(rows).toEqual([[true, null, 'missing', true], [true, null, 'missing', true]]);
  });
});
