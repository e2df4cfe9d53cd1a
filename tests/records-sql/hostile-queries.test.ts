import { describe, expect, it } from 'vitest';
import { SragError, type SqlResult } from '../../core/index.ts';
import { InMemorySqlEngine } from '../../records-sql/index.ts';
import { randomQueries } from './helpers/random-queries.ts';

/**
 * Generated SQL is untrusted: whatever it asks, the engine answers or stops with a SragError
 * (code SQL_FAILED, one line), in bounded time and memory. Before the engine bounded them, these
 * queries ran for minutes to hours (a backtracking LIKE or regular expression blocks the thread,
 * so such a test never ends), held gigabytes, or threw raw JavaScript errors.
 */
const engine = new InMemorySqlEngine({
  notes: { columns: [{ name: 'id', type: 'BIGINT' }, { name: 'body', type: 'VARCHAR' }], rows: [[1, 'a'.repeat(4000)], [2, 'ab'.repeat(2000)]] },
});

async function outcome(sql: string): Promise<SqlResult | SragError> {
  try {
    return await engine.runReadOnlyQuery(sql, ['notes']);
  } catch (error) {
    if (SragError.isInstance(error)) return error;
    throw error;
  }
}

async function expectStopped(sql: string, message: RegExp): Promise<void> {
  const result = await outcome(sql);
  expect(SragError.isInstance(result) ? { code: result.code, message: result.message } : { rows: result.rows }).toEqual({ code: 'SQL_FAILED', message: expect.stringMatching(message) });
  expect((result as SragError).message).not.toContain('\n');
}

describe('records-sql under hostile generated SQL', () => {
  it('answers a regular expression with nested repetition at once instead of backtracking (RE2 runs it in linear time)', async () => {
    expect(await outcome("SELECT regexp_matches(repeat('a', 30), '(a+)+b'), regexp_matches(body, '(a|aa)*c'), regexp_matches(body, '(.*a){20}x') FROM notes ORDER BY id"))
      .toEqual({ columns: expect.any(Array), rows: [[false, false, false], [false, false, false]] });
  });

  it("matches LIKE '%a%a%a%a%a%a%b' over thousands of characters in linear time", async () => {
    expect((await outcome("SELECT body LIKE '%a%a%a%a%a%a%b', body || 'b' LIKE '%a%a%a%a%a%a%b', body ILIKE '%A%A%A%A%A%A%_' FROM notes ORDER BY id") as SqlResult).rows)
      .toEqual([[false, true, true], [true, true, true]]);
  });

  it('refuses the backreferences and lookaround that only a backtracking matcher could run, as DuckDB does', async () => {
    await expectStopped("SELECT regexp_matches(body, '(a)\\1') FROM notes", /backreferences are not supported/);
    await expectStopped("SELECT regexp_matches(body, 'a(?=b)') FROM notes", /lookaround/);
    await expectStopped("SELECT regexp_matches(body, '(a{1000}){1000}') FROM notes", /too large/);
  });

  it('stops a join of range(100000) with range(1000) on its memory, before it holds gigabytes of rows', async () => {
    await expectStopped('SELECT count(*) FROM range(100000) a, range(1000) b', /would take more than 64 MB.*filter or aggregate before joining/);
  });

  it('counts each item of a 200,000-value IN list against the step budget', async () => {
    const list = Array.from({ length: 200_000 }, (_, index) => index).join(', ');
    await expectStopped(`SELECT count(*) FROM range(1000) r WHERE r.range IN (${list})`, /touches too many rows.*20,000,000 steps/);
  });

  it('counts the rows string_agg reads and the text it builds against the budget', async () => {
    await expectStopped("SELECT length(string_agg(range::VARCHAR, '')) FROM range(600000)", /would take more than 64 MB/);
    await expectStopped("SELECT length(string_agg(repeat('x', 1000), ',')) FROM range(20000)", /longer than the spreadsheet SQL engine holds in one value/);
  });

  it('finds no function named like an Object.prototype member (constructor, __proto__, toString)', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      await expectStopped(`SELECT ${name}(1)`, new RegExp(`Scalar Function with name ${name.toLowerCase()} does not exist`));
      await expectStopped(`SELECT ${name}(id) FROM notes GROUP BY id`, /does not exist/);
    }
    await expectStopped("SELECT DATE '2020-01-01' + INTERVAL 1 constructor", /interval unit constructor/);
  });

  it('refuses deep nesting with a one-line error instead of overflowing the call stack', async () => {
    await expectStopped(`SELECT ${'('.repeat(5000)}1${')'.repeat(5000)}`, /nests parentheses, subqueries, NOTs or signs too deeply/);
    await expectStopped(`SELECT ${'NOT '.repeat(50_000)}TRUE`, /too deeply/);
    await expectStopped(`SELECT ${'- '.repeat(50_000)}1`, /too deeply/);
    await expectStopped(`SELECT 1${' + 1'.repeat(100_000)}`, /nests more than 500 levels deep/);
    await expectStopped(`SELECT count(*) FROM notes WHERE ${Array.from({ length: 20_000 }, (_, index) => `id = ${index}`).join(' OR ')}`, /nests more than 500 levels deep/);
    await expectStopped(`SELECT ${'(SELECT '.repeat(3000)}1${')'.repeat(3000)}`, /too deeply/);
  });

  it('refuses text longer than one value may hold before building it', async () => {
    await expectStopped("SELECT length(repeat(repeat(repeat('x', 10000), 10000), 10000))", /longer than the spreadsheet SQL engine holds in one value/);
    await expectStopped("SELECT length(repeat('ab', 100000000))", /200,000,000 characters/);
    await expectStopped("SELECT printf('%999999999d', 1)", /longer than the spreadsheet SQL engine holds/);
    await expectStopped(`SELECT length(concat(${Array.from({ length: 20 }, () => "repeat('x', 1000000)").join(', ')}))`, /longer than/);
    await expectStopped("SELECT length(replace(repeat('a', 5000000), 'a', 'aaaa'))", /longer than/);
    await expectStopped("SELECT length(regexp_replace(repeat('a', 2000000), '', 'bbbbbbbbbb', 'g'))", /longer than/);
  });

  it('answers 2,000 random queries with rows or a one-line SragError, never a raw JavaScript error', async () => {
    for (const sql of randomQueries(2026, 2000)) {
      const result = await engine.runReadOnlyQuery(sql, ['notes']).then((value) => value, (error: unknown) => error);
      if (!SragError.isInstance(result) && !(result instanceof Error)) continue;
      const message = (result as Error).message;
      expect({ sql, sragError: SragError.isInstance(result), oneLine: !message.includes('\n') }).toEqual({ sql, sragError: true, oneLine: true });
    }
  });

  it('turns the JavaScript errors of odd arguments into one-line SQL errors', async () => {
    await expectStopped("SELECT printf('%.200f', 1.5)", /at most 50 digits/);
    await expectStopped("SELECT printf('%c', -1)", /%c takes a character code/);
    await expectStopped("SELECT format('{:.500f}', 1.5)", /at most 50 digits/);
  });

});
