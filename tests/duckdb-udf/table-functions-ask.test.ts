import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSqlSession, type SqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { sragAskMacroSql } from '../../node/sql-functions/table-functions/srag-ask.ts';
import { readGoldQuestions } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-ask-'));
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' });
const questions = readGoldQuestions('examples/hotels').filter((question) => ['count', 'avg', 'argmax', 'group_by', 'date', 'null'].includes(question.kind)).slice(0, 6);

/**
 * Equal, or the same number to 1e-9 relative: the rows of the two tables are in different orders
 * (`srag ingest` writes them as documents finish), and a DOUBLE sum's last bits follow the order.
 */
function sameValue(actual: unknown, expected: unknown): boolean {
  const [left, right] = [Number(actual), Number(expected)];
  if (typeof actual !== 'boolean' && actual !== null && actual !== '' && Number.isFinite(left) && Number.isFinite(right)) {
    return Math.abs(left - right) <= 1e-9 * Math.max(1, Math.abs(right));
  }
  return actual === expected;
}

interface CliAnswer {
  answer: string;
  sql: string;
  columns: string[];
  rows: Array<Array<string | number | boolean | null>>;
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
});
afterAll(async () => {
  await standIn.close();
});

describe('srag_ask', () => {
  const cliDatabase = join(workDirectory, 'cli.duckdb');
  let cliAnswers: CliAnswer[];
  let session: SqlSession;

  beforeAll(async () => {
    const ingest = await runSragInProcess(['ingest', 'examples/hotels/docs/*', '--schema', 'examples/hotels/schema.json', '--db', cliDatabase], { environment: environment() });
    expect(ingest.status, ingest.stderr).toBe(0);
    const ask = await runSragInProcess(['ask', ...questions.map((question) => question.question), '--db', cliDatabase, '--json'], { environment: environment() });
    expect(ask.status, ask.stderr).toBe(0);
    cliAnswers = ask.stdout.trim().split('\n').map((line) => JSON.parse(line) as CliAnswer);
    session = await openSqlSession(join(workDirectory, 'sql.duckdb'), { environment: environment(), progress: false });
    await session.run("CREATE TABLE hotels AS SELECT * FROM srag_extract('examples/hotels/docs/*', schema := 'examples/hotels/schema.json')");
  });
  afterAll(async () => {
    await session?.close();
  });

  it('answers over a table made by CREATE TABLE AS srag_extract exactly as `srag ask` answers over the ingested one', async () => {
    expect(questions.length).toBeGreaterThanOrEqual(5);
    for (const [index, question] of questions.entries()) {
      const result = await session.run(`SELECT * FROM srag_ask('${question.question.replace(/'/g, "''")}', 'hotels')`);
      expect(result.columns).toEqual(['answer', 'sql', 'result', 'result_cut', 'coverage', 'prompt_tokens', 'completion_tokens', 'tables', 'schema_extension']);
      const [answer, sql, resultJson] = result.rows[0]!;
      const cli = cliAnswers[index]!;
      expect({ question: question.question, sql }).toEqual({ question: question.question, sql: cli.sql });
      // The value, without what it rests on: a table made by srag_extract may keep other evidence than the ingested one.
      const value = (text: unknown) => String(text).replace(/ \(among the .*\)$/, '');
      expect(sameValue(value(answer), value(cli.answer)), `${question.question}: ${answer} vs ${cli.answer}`).toBe(true);
      const rows = (JSON.parse(String(resultJson)) as Array<Record<string, unknown>>).map((row) => Object.values(row));
      expect(rows.length).toBe(cli.rows.length);
      rows.forEach((row, rowIndex) => row.forEach((cell, cellIndex) => expect(sameValue(cell, cli.rows[rowIndex]![cellIndex]), question.question).toBe(true)));
    }
  });

  it('takes the table by name too, and reports the tokens of the call', async () => {
    standIn.reset();
    const question = 'How many hotels are in Spain?';
    const [answer, promptTokens, completionTokens] = (await session.run(`SELECT answer, prompt_tokens, completion_tokens FROM srag_ask('${question}', "table" := 'hotels')`)).rows[0]!;
    expect(answer).toBe('11');
    expect(Number(promptTokens)).toBeGreaterThan(0);
    expect(Number(completionTokens)).toBeGreaterThan(0);
  });

  it('answers with one argument when the database has one record table, whatever else it holds', async () => {
    await session.run('CREATE TABLE unrelated AS SELECT 1 AS x');
    const [answer, sql] = (await session.run("SELECT answer, sql FROM srag_ask('How many hotels are in Spain?')")).rows[0]!;
    expect(answer).toBe('11');
    expect(String(sql)).toMatch(/FROM "?hotels"?/);
  });

  it('refuses a table whose columns it cannot explain, and says how to make one', async () => {
    await expect(session.run("SELECT * FROM srag_ask('How many?', 'unrelated')")).rejects.toThrow(/srag_ask: unknown table: table "unrelated" was not made by srag ingest, srag import or srag_extract, so the meaning of its columns is unknown/);
    await expect(session.run("SELECT * FROM srag_ask('How many?', 'no_such_table')")).rejects.toThrow(/srag_ask: unknown table: no table "no_such_table" in this database made by srag ingest, srag import or srag_extract — name the table: SELECT \* FROM srag_ask\('…', 'hotels'\), one of: hotels$/);
  });

  it('names the form that works when the one-argument form finds no table for the question, when srag_ask is called as a scalar or without a question, and when srag_extract is called as a scalar without a schema', async () => {
    await session.run('CREATE TABLE hotels_copy AS SELECT * FROM hotels');
    try {
      const several = await session.run("SELECT * FROM srag_ask('How many?')").catch((error: Error) => error);
      expect(String(several)).toMatch(/srag_ask: unknown table: no table matches the words of the question "How many\?" — name the table: SELECT \* FROM srag_ask\('…', 'hotels'\), one of: hotels, hotels_copy/);
      expect(String(several).split('\n')).toHaveLength(1);
    } finally {
      await session.run('DROP TABLE hotels_copy');
    }
    await expect(session.run("SELECT srag_ask('How many?')")).rejects.toThrow(/srag_ask is a table function: SELECT \* FROM srag_ask\('How many\?'\)/);
    await expect(session.run("SELECT srag_ask('How many?', 'hotels')")).rejects.toThrow(/SELECT \* FROM srag_ask\('How many\?', 'hotels'\)/);
    // Without a question, in either form: the call with one (DuckDB's own binder error named no form).
    for (const statement of ['SELECT * FROM srag_ask()', 'SELECT srag_ask()']) {
      await expect(session.run(statement)).rejects.toThrow(/^[^\n]*srag_ask needs a question: SELECT \* FROM srag_ask\('How many hotels are in Spain\?'\)$/);
    }
    // A scalar with one argument (the table form written without FROM, or a text without its schema): both forms that work.
    const withoutSchema = /^[^\n]*srag_extract: invalid argument: srag_extract needs a schema — one row per file: SELECT \* FROM srag_extract\('docs\/\*', schema := 'schema\.json'\); one record per text: SELECT srag_extract\(content, 'schema\.json', filename\) FROM read_text\('docs\/\*'\)$/;
    await expect(session.run("SELECT srag_extract('examples/hotels/docs/*')")).rejects.toThrow(withoutSchema);
    await expect(session.run("SELECT srag_extract(content) FROM read_text('examples/hotels/docs/amber-arch-hotel.md')")).rejects.toThrow(withoutSchema);
  });

  it('keeps its result bounded and says what it cut', async () => {
    const row = (await session.run("SELECT result, result_cut FROM srag_ask('How many hotels are in Spain?', 'hotels')")).rows[0]!;
    expect(row[1]).toBeNull();
  });

  it('reads no rows through JavaScript: a macro argument carries the catalog, never the table', () => {
    expect(sragAskMacroSql).not.toMatch(/query_table|FROM "?table"?\b|srag_rows/);
  });

  it('answers over a table `srag ingest` made, with the schema and statistics the CLI stored', async () => {
    await session.close();
    session = await openSqlSession(cliDatabase, { environment: environment(), progress: false });
    const question = questions[0]!;
    const [answer, sql] = (await session.run(`SELECT answer, sql FROM srag_ask('${question.question.replace(/'/g, "''")}', 'hotels')`)).rows[0]!;
    expect({ answer, sql }).toEqual({ answer: cliAnswers[0]!.answer, sql: cliAnswers[0]!.sql });
  });
});
