import { DuckDBInstance } from '@duckdb/node-api';
import { appendFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { averageParisPrice, hotelsWithGaps, pagesWithMisreadPrice, parisHotelCount } from '../helpers/hotels-with-gaps.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';

interface Coverage { column: string; rows: number; present: number; missing: number; dropped: number; unknown: number; over: string }

let standIn: LlmStandIn;
const corpus = hotelsWithGaps();
/** Issue 37, item 4: a page ingested at the end, without evidence, its price misread ×1,000 (the stand-in's magnitude slip). */
const highestPrice = 'What is the highest price per night of any hotel?';
const listingInCents = 'golden-quarter-hotel-listing.txt';
appendFileSync(join(corpus.directory, 'questions.jsonl'), `${JSON.stringify({ question: highestPrice, answer: '', sql: 'SELECT MAX(price_per_night) FROM hotels', gold: 0, kind: 'max' })}\n`);
writeFileSync(join(corpus.docs, listingInCents), `${readFileSync(join(corpus.docs, 'golden-quarter-hotel.txt'), 'utf8')}\nListed again by a second agency.\n`);
const database = join(corpus.directory, 'hotels.duckdb');
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' });
const ask = (args: string[]) => runSragInProcess(['ask', ...args, '--db', database], { environment: environment() });

/** What srag_evidence says of the Paris hotels' prices, counted here without srag's coverage code. */
async function parisPriceEvidence(): Promise<Record<string, number>> {
  const instance = await DuckDBInstance.create(database, { access_mode: 'READ_ONLY' });
  try {
    const connection = await instance.connect();
    const rows = (await connection.runAndReadAll(`
      SELECT e.status, count(*) FROM hotels h JOIN srag_evidence e ON e.source = h._source AND e.table_name = 'hotels'
      WHERE h.city = 'Paris' AND e.attribute = 'price_per_night' GROUP BY e.status`)).getRowsJS();
    connection.closeSync();
    return Object.fromEntries(rows.map(([status, count]) => [String(status), Number(count)]));
  } finally {
    instance.closeSync();
  }
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: [corpus.directory] });
  const careful = readdirSync(corpus.docs).filter((page) => !pagesWithMisreadPrice.includes(page) && page !== listingInCents).map((page) => join(corpus.docs, page));
  const first = await runSragInProcess(['ingest', ...careful, '--schema', 'examples/hotels/schema.json', '--db', database], { environment: environment() });
  expect(first.status, first.stderr).toBe(0);
  standIn.setOptions({ slips: ['misread-values'], slipProperties: ['price_per_night'] });
  const slipped = await runSragInProcess(['ingest', ...pagesWithMisreadPrice.map((page) => join(corpus.docs, page)), '--schema', 'examples/hotels/schema.json', '--db', database], { environment: environment() });
  expect(slipped.status, slipped.stderr).toBe(0);
  standIn.setOptions({ slips: [], slipProperties: [] });
});
afterAll(async () => {
  await standIn.close();
});

describe('every answer says what it rests on', () => {
  it('counts the values behind an average over the rows its filter selects, as the evidence table holds them', async () => {
    standIn.reset();
    const run = await ask([averageParisPrice, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const coverage = (JSON.parse(run.stdout) as { coverage: Coverage[] }).coverage;
    const price = coverage.find((column) => column.column === 'price_per_night')!;
    const evidence = await parisPriceEvidence();
    expect(price).toMatchObject({
      over: 'selected',
      rows: Object.values(evidence).reduce((sum, count) => sum + count, 0),
      present: evidence.supported ?? 0,
      missing: evidence.missing ?? 0,
      dropped: (evidence.unsupported ?? 0) + (evidence.invalid ?? 0),
      unknown: 0,
    });
    // The sample as built: 10 Paris hotels, 3 pages state no price, 2 misread prices were dropped.
    expect(price).toMatchObject({ rows: 10, present: 5, missing: 3, dropped: 2 });
    expect(coverage.find((column) => column.column === 'city')).toMatchObject({ over: 'table', rows: 50, present: 50, missing: 0, dropped: 0 });
    // The answer prompt carried the same words, so the worded answer could say what it rests on.
    const answerPrompt = JSON.stringify(standIn.requests.find((request) => request.kind === 'answer')?.body.messages ?? null);
    expect(answerPrompt).toContain('price_per_night: computed over 5 of the 10 hotels the query selects; 3 do not state it, 2 values were dropped');
  });

  it('says in words how many hotels the answer rests on and why the others are left out, with the command that shows a dropped value', async () => {
    const run = await ask([averageParisPrice]);
    expect(run.status, run.stderr).toBe(0);
    const [answer, , note] = run.stdout.split('\n');
    expect(answer).toBe('215.4 (among the 5 hotels that state price_per_night)');
    expect(note).toMatch(/^Coverage: price_per_night: computed over 5 of the 10 hotels the query selects; 3 do not state it, 2 values were dropped as unsupported or invalid \(see srag why (olive-square-hotel\.txt|opal-tower-hotel\.html) price_per_night --db .*\)\.$/);
  });

  it('shows no note when every value the query reads is present', async () => {
    const text = await ask([parisHotelCount]);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe('10');
    expect(text.stdout).not.toContain('Coverage');
    const json = JSON.parse((await ask([parisHotelCount, '--json'])).stdout) as { coverage: Coverage[] };
    expect(json.coverage).toEqual([expect.objectContaining({ column: 'city', rows: 50, present: 50, missing: 0, dropped: 0, unknown: 0 })]);
  });

  it('srag_ask counts a copy of srag_extract\'s rows (CREATE TABLE … AS SELECT *) against the evidence of its documents, wherever the copy was made from', async () => {
    // Two pages' prices misread first (kept as they are: unchanged pages are not extracted again), then the copy of every page,
    // made from the corpus directory with relative paths: the copy's filename column says docs/…, not the documents' identities.
    standIn.setOptions({ slips: ['misread-values'], slipProperties: ['price_per_night'] });
    const pages = pagesWithMisreadPrice.map((page) => `'docs/${page}'`).join(', ');
    const slipped = await runSragInProcess(['sql', '--db', database, '-c', `SELECT count(*) FROM srag_extract([${pages}], schema := 'schema.json')`], { environment: environment(), cwd: corpus.directory });
    standIn.setOptions({ slips: [], slipProperties: [] });
    expect(slipped.status, slipped.stderr).toBe(0);
    const made = await runSragInProcess(['sql', '--db', database, '-c', "CREATE TABLE copied AS SELECT * FROM srag_extract('docs/*', schema := 'schema.json')"], { environment: environment(), cwd: corpus.directory });
    expect(made.status, made.stderr).toBe(0);
    const run = await runSragInProcess(['sql', '--db', database, '--json', '-c', `SELECT coverage FROM srag_ask('${averageParisPrice}', 'copied')`], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    const cell = (JSON.parse(run.stdout) as { rows: unknown[][] }).rows[0]![0];
    const price = (JSON.parse(String(cell)) as Coverage[]).find((column) => column.column === 'price_per_night')!;
    // The same counts, taken here from srag_extract's own record table and the evidence under its schema key.
    const instance = await DuckDBInstance.create(database, { access_mode: 'READ_ONLY' });
    let expected: Record<string, number>;
    try {
      const connection = await instance.connect();
      const [[key, table]] = (await connection.runAndReadAll(
        "SELECT s.schema_key, t.schema_name || '.\"' || t.table_name || '\"' FROM srag_extract_schemas s, duckdb_tables() t WHERE t.schema_name = 'srag_extract'")).getRowsJS() as [[string, string]];
      const rows = (await connection.runAndReadAll(`
        SELECT e.status, count(*) FROM ${table} r JOIN srag_evidence e ON e.source = r._source AND e.table_name = $1
        WHERE r.city = 'Paris' AND e.attribute = 'price_per_night' GROUP BY e.status`, [key])).getRowsJS();
      expected = Object.fromEntries(rows.map(([status, count]) => [String(status), Number(count)]));
      connection.closeSync();
    } finally {
      instance.closeSync();
    }
    expect(expected.unsupported ?? 0).toBeGreaterThan(0);
    expect(expected.supported ?? 0).toBeGreaterThan(0);
    expect(price).toMatchObject({
      rows: Object.values(expected).reduce((sum, count) => sum + count, 0),
      present: (expected.supported ?? 0) + (expected.conflict ?? 0),
      missing: expected.missing ?? 0,
      dropped: (expected.unsupported ?? 0) + (expected.invalid ?? 0),
      unknown: 0,
    });
  });

  it('srag_ask returns the same coverage as srag ask, as a JSON column', async () => {
    const cli = (JSON.parse((await ask([averageParisPrice, '--json'])).stdout) as { coverage: Coverage[] }).coverage;
    const run = await runSragInProcess(['sql', '--db', database, '--json', '-c', `SELECT coverage FROM srag_ask('${averageParisPrice}')`], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    const cell = (JSON.parse(run.stdout) as { rows: unknown[][] }).rows[0]![0];
    expect(typeof cell === 'string' ? JSON.parse(cell) : cell).toEqual(cli);
  });
});

describe('an answer that rests on a value far from the rest of its column names it, with the command that shows its quote', () => {
  beforeAll(async () => {
    // Without evidence nothing checks the misread price (143 read as 143,000): it reaches the table, as a unit slip would.
    standIn.setOptions({ slips: ['misread-values'], slipProperties: ['price_per_night'] });
    const slipped = await runSragInProcess(['ingest', join(corpus.docs, listingInCents), '--no-evidence', '--schema', 'examples/hotels/schema.json', '--db', database], { environment: environment() });
    standIn.setOptions({ slips: [], slipProperties: [] });
    expect(slipped.status, slipped.stderr).toBe(0);
  });

  it('in srag ask\'s note and --json, and in srag_ask\'s coverage column, the number itself unchanged', async () => {
    standIn.reset();
    // Named: the earlier test's `copied` holds the same hotels, and the question alone fits both tables.
    const text = await ask([highestPrice, '--table', 'hotels']);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout.split('\n')[0]).toContain('143000');
    const note = text.stdout.split('\n').find((line) => line.startsWith('Coverage: price_per_night'));
    expect(note).toMatch(/the largest value, 143,000 \(golden-quarter-hotel-listing\.txt\), is 170 times the next largest, 843 \(see srag why golden-quarter-hotel-listing\.txt price_per_night --db .*\)\.$/);
    const json = JSON.parse((await ask([highestPrice, '--table', 'hotels', '--json'])).stdout) as { rows: unknown[][]; coverage: Array<Coverage & { outliers?: unknown[] }> };
    expect(json.rows).toEqual([[143000]]);
    const price = json.coverage.find((column) => column.column === 'price_per_night')!;
    expect(price.outliers).toEqual([expect.objectContaining({ value: 143000, side: 'highest', why: 'srag why golden-quarter-hotel-listing.txt price_per_night' })]);
    // The answer prompt was told, so the worded answer can say what it rests on.
    expect(JSON.stringify(standIn.requests.find((request) => request.kind === 'answer')?.body.messages ?? null)).toContain('the largest value, 143,000 (golden-quarter-hotel-listing.txt)');
    const run = await runSragInProcess(['sql', '--db', database, '--json', '-c', `SELECT coverage FROM srag_ask('${highestPrice}', 'hotels')`], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    const cell = (JSON.parse(run.stdout) as { rows: unknown[][] }).rows[0]![0];
    expect(typeof cell === 'string' ? JSON.parse(cell) : cell).toEqual(json.coverage);
  });
});

