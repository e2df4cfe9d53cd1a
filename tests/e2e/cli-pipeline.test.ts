import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { readGoldQuestions, rowsMatchGold } from '../helpers/gold-questions.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { runSrag } from '../helpers/run-srag.ts';

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-e2e-'));
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' });

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels', 'examples/worldcup'] });
});
afterAll(async () => {
  await standIn.close();
});

describe('srag CLI over the hotels sample corpus', () => {
  const database = join(workDirectory, 'hotels.duckdb');

  it('predicts a schema in four rounds: documents first, then refinements that see the questions', async () => {
    standIn.reset();
    const output = join(workDirectory, 'predicted.schema.json');
    const run = await runSrag(['schema', 'examples/hotels/docs', '--questions', 'examples/hotels/questions.jsonl', '-o', output, '--db', join(workDirectory, 'schema-cache.duckdb')], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/round 4\/4: 14 attributes/);
    const requests = standIn.requests.map((request) => ({ kind: request.kind, text: JSON.stringify(request.body.messages) }));
    expect(requests[0]!.kind).toBe('predict-schema-first');
    expect(requests[0]!.text).not.toContain('How many 4-star hotels are there in Rome?');
    expect(requests.slice(1).every((request) => request.kind === 'refine-schema' && request.text.includes('How many 4-star hotels are there in Rome?'))).toBe(true);
    expect(JSON.parse(readFileSync(output, 'utf8'))).toEqual(JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8')));
  });

  it('ingests every document, then answers every sample question exactly from SQL', async () => {
    const ingest = await runSrag(['ingest', 'examples/hotels/docs/*', '--schema', 'examples/hotels/schema.json', '--db', database], { environment: environment() });
    expect(ingest.stderr).toBe('');
    expect(ingest.status).toBe(0);
    expect(ingest.stdout).toMatch(/^hotels: 50 done, 0 failed, 0 unchanged/);
    // The instructions repeat from call to call; the stand-in reports them cached, as OpenAI does.
    expect(ingest.stdout).toMatch(/ prompt \([1-9]\d* cached\) \+ \d+ completion tokens/);
    // Short pages share calls by default: each page is sent once, several to a call.
    const extractions = standIn.requests.filter((request) => request.kind.startsWith('extract-record'));
    expect(extractions.every((request) => request.kind === 'extract-record-batch')).toBe(true);
    expect(extractions.reduce((sent, request) => sent + request.body.messages[1].content.match(/^<document id="/gm).length, 0)).toBe(50);
    expect(extractions.length).toBeLessThanOrEqual(10);
    const types = JSON.parse((await runSragInProcess(['sql', '--db', database, '--json', '-c',
      "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'hotels' AND column_name IN ('hotel_name', 'star_rating', 'price_per_night', 'has_pool', 'opened_date') ORDER BY column_name"])).stdout);
    expect(types.rows).toEqual([['has_pool', 'BOOLEAN'], ['hotel_name', 'VARCHAR'], ['opened_date', 'DATE'], ['price_per_night', 'DOUBLE'], ['star_rating', 'BIGINT']]);

    const questions = readGoldQuestions('examples/hotels');
    expect(questions.length).toBeGreaterThanOrEqual(12);
    expect(new Set(questions.map((question) => question.kind))).toEqual(new Set(['count', 'avg', 'sum', 'min', 'max', 'argmax', 'group_by', 'boolean', 'date', 'null', 'filter']));
    // One question through the plain output, the rest in one process with --json.
    const single = await runSrag(['ask', questions[0]!.question, '--db', database], { environment: environment() });
    expect(single.status, single.stderr).toBe(0);
    expect(single.stdout).toContain(`SQL: ${questions[0]!.sql}`);
    expect(single.stdout.split('\n')[0]).toBe(questions[0]!.answer);

    const ask = await runSragInProcess(['ask', ...questions.map((question) => question.question), '--db', database, '--json'], { environment: environment() });
    expect(ask.status, ask.stderr).toBe(0);
    const results = ask.stdout.trim().split('\n').map((line) => JSON.parse(line) as { answer: string; sql: string; columns: string[]; rows: Array<Array<string | number | boolean | null>>; usage: { calls: number } });
    expect(results).toHaveLength(questions.length);
    const mismatches: string[] = [];
    results.forEach((result, index) => {
      expect(Object.keys(result).sort()).toEqual(['answer', 'columns', 'coverage', 'joins', 'path', 'rows', 'sql', 'tables', 'usage']);
      const question = questions[index]!;
      if (!rowsMatchGold(result.rows, question.gold)) mismatches.push(`${question.question}: got ${JSON.stringify(result.rows)}, gold ${JSON.stringify(question.gold)}`);
    });
    expect(mismatches).toEqual([]);
  });

  it('answers a question asked before from the response cache with no endpoint configured; a new one says how to configure one', async () => {
    const [question] = readGoldQuestions('examples/hotels');
    const cached = await runSragInProcess(['ask', question!.question, '--db', database], { environment: {} });
    expect(cached.status, cached.stderr).toBe(0);
    expect(cached.stdout).toContain(`SQL: ${question!.sql}`);
    const fresh = await runSrag(['ask', 'How many hotels have a spa?', '--db', database], { environment: {} });
    expect(fresh.status).toBe(3);
    expect(fresh.stderr).toMatch(/^srag: no LLM endpoint is configured — set OPENAI_API_KEY .*; only replies already in the response cache need none\n$/);
  });

  it('makes zero model calls when ingesting unchanged documents again', async () => {
    standIn.reset();
    const again = await runSragInProcess(['ingest', 'examples/hotels/docs/*', '--schema', 'examples/hotels/schema.json', '--db', database], { environment: environment() });
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/0 done, 0 failed, 50 unchanged, 0 from cache; 0 model calls/);
    expect(standIn.requests).toHaveLength(0);
  });

  it('shows statistics, runs the user\'s own SQL, and explains where a value came from', async () => {
    const stats = JSON.parse((await runSragInProcess(['stats', '--db', database, '--json'])).stdout) as { table: string; rows: number; log: Record<string, number>; statistics: Array<{ name: string; nonNullCount: number }> };
    expect(stats).toMatchObject({ table: 'hotels', rows: 50, log: { done: 50 } });
    expect(stats.statistics.map((column) => column.name)).toContain('price_per_night');

    const sql = JSON.parse((await runSragInProcess(['sql', '--db', database, '--json', '-c', 'SELECT count(*) AS n, count(DISTINCT "_source") AS sources FROM hotels'])).stdout);
    expect(sql).toEqual({ columns: ['n', 'sources'], rows: [[50, 50]] });

    const goldRecord = JSON.parse(readFileSync('examples/hotels/gold/records.jsonl', 'utf8').split('\n')[0]!) as { document: string; values: Record<string, { value: unknown; quote: string | null }> };
    const documentName = goldRecord.document.replace(/^docs\//, '');
    const why = await runSrag(['why', documentName, 'hotel_name', '--db', database]);
    expect(why.status).toBe(0);
    expect(why.stdout).toContain(`hotel_name = ${goldRecord.values.hotel_name!.value} (supported)`);
    expect(why.stdout).toContain(String(goldRecord.values.hotel_name!.quote));
  });
});

describe('srag CLI over the World Cup pages (long documents)', () => {
  it('splits pages over the input budget, merges the parts, and answers the World Cup questions exactly', async () => {
    const database = join(workDirectory, 'worldcup.duckdb');
    standIn.reset();
    const ingest = await runSragInProcess(['ingest', 'examples/worldcup/docs/*.txt', '--schema', 'examples/worldcup/schema.json', '--db', database],
      { environment: { ...environment(), SRAG_MAX_INPUT_TOKENS: '8000' } });
    expect(ingest.status, ingest.stderr).toBe(0);
    expect(ingest.stdout).toMatch(/^world_cup_tournament: 22 done, 0 failed/);
    // Several requests per page: every page of the corpus is longer than 8,000 tokens.
    expect(standIn.countByKind()['extract-record']).toBeGreaterThan(22 * 2);

    const questions = readGoldQuestions('examples/worldcup');
    const ask = await runSragInProcess(['ask', ...questions.map((question) => question.question), '--db', database, '--json'], { environment: environment() });
    expect(ask.status, ask.stderr).toBe(0);
    const results = ask.stdout.trim().split('\n').map((line) => JSON.parse(line) as { rows: Array<Array<string | number | boolean | null>> });
    const mismatches = questions
      .filter((question, index) => !rowsMatchGold(results[index]?.rows ?? [], question.gold))
      .map((question) => `${question.question}: got ${JSON.stringify(results[questions.indexOf(question)]?.rows)}, gold ${JSON.stringify(question.gold)}`);
    expect(mismatches).toEqual([]);
    expect(questions.find((question) => /average number of total goals/i.test(question.question))?.answer).toBe('123.64');
  });
});
