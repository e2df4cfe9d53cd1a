import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  askQuestion,
  computeStatistics,
  ModelClient,
  parseRecordSchema,
  SqlFailedError,
  SragError,
  type LanguageModelRequest,
} from '../../core/index.ts';
import { DuckDbSqlEngine } from '../../node/duckdb/duckdb-sql-engine.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { createRecordingLanguageModel, type ScriptedReply } from '../helpers/recording-language-model.ts';
import { caught } from '../helpers/caught.ts';

const schema = parseRecordSchema({
  title: 'Hotel',
  properties: {
    hotel_name: { type: 'string', description: 'Name of the hotel.' },
    price_per_night: { type: 'number', unit: 'USD', description: 'Cheapest nightly room rate.' },
    stars: { type: 'integer', description: 'Official star rating, 1 to 5.' },
    has_pool: { type: 'boolean', description: 'Whether the hotel has a swimming pool.' },
    opened_on: { type: 'string', format: 'date', description: 'Opening date.' },
  },
});

const hotelRows = [
  { hotel_name: 'Lux', price_per_night: 120, stars: 4, has_pool: true, opened_on: '2011-03-05', _source: 'lux.html' },
  { hotel_name: 'Ritz', price_per_night: 480, stars: 5, has_pool: true, opened_on: '1906-05-24', _source: 'ritz.html' },
  { hotel_name: 'Budget Inn', price_per_night: 55, stars: 2, has_pool: false, opened_on: null, _source: 'inn.html' },
];
const statistics = computeStatistics(schema, hotelRows);
const prompts = loadPromptLibrary();

let connection: DuckDBConnection;
let sqlEngine: DuckDbSqlEngine;

beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  await connection.run(`CREATE TABLE hotels (hotel_name VARCHAR, price_per_night DOUBLE, stars BIGINT, has_pool BOOLEAN, opened_on DATE, "_source" VARCHAR);
    INSERT INTO hotels VALUES ('Lux', 120, 4, true, DATE '2011-03-05', 'lux.html'), ('Ritz', 480, 5, true, DATE '1906-05-24', 'ritz.html'),
      ('Budget Inn', 55, 2, false, NULL, 'inn.html');`);
  sqlEngine = new DuckDbSqlEngine(connection);
});

afterAll(() => connection.closeSync());

async function hotelCount(): Promise<number> {
  const reader = await connection.runAndReadAll('SELECT count(*) FROM hotels');
  return Number(reader.getRowsJS()[0]![0]);
}

function setUp(replies: ScriptedReply[]) {
  const model = createRecordingLanguageModel(replies);
  const client = new ModelClient({ languageModel: model.languageModel, sleep: async () => {} });
  const ask = (question: string) => askQuestion({ client, prompts, sqlEngine, tables: [{ name: 'hotels', schema, statistics, origin: 'extracted' }], question });
  return { ...model, client, ask };
}

const sqlReply = (sql: string) => JSON.stringify({ sql });
const lastUserMessage = (request: LanguageModelRequest) => request.messages.filter((message) => message.role === 'user').at(-1)!.content;


const poolSql = 'SELECT hotel_name FROM hotels WHERE has_pool ORDER BY price_per_night';

describe('askQuestion', () => {
  it('puts the question, every column with type, unit and description, the statistics and the dialect notes in the SQL prompt', async () => {
    const { ask, requests } = setUp([sqlReply(poolSql), 'Lux and Ritz.']);
    await ask('Which hotels have a pool?');
    const prompt = requests[0]!.messages.map((message) => message.content).join('\n');
    expect(requests[0]!.messages.at(-1)).toEqual({ role: 'user', content: 'Which hotels have a pool?' });
    expect(prompt).toContain('`hotels`');
    expect(prompt).toContain('- "hotel_name" VARCHAR: Name of the hotel.');
    expect(prompt).toContain('- "price_per_night" DOUBLE, USD: Cheapest nightly room rate.');
    expect(prompt).toContain('- "stars" BIGINT: Official star rating, 1 to 5.');
    expect(prompt).toContain('- "has_pool" BOOLEAN: Whether the hotel has a swimming pool.');
    expect(prompt).toContain('- "opened_on" DATE: Opening date.');
    expect(prompt).toContain('- "price_per_night": 3 of 3 rows non-null; 3 non-zero; min 55; max 480');
    expect(prompt).toContain('"Budget Inn" (1)');
    expect(prompt).toContain('min 1906-05-24; max 2011-03-05');
    expect(prompt).toContain('DuckDB dialect notes');
    expect(prompt).toContain("DATE 'YYYY-MM-DD'");
    expect(requests[0]!.outputSchema?.name).toBe('sql_query');
  });

  it('returns the answer, the SQL, the columns, the rows and the usage', async () => {
    const { ask, requests } = setUp([sqlReply(`${poolSql};`), '  Lux and Ritz have a pool.\n']);
    const result = await ask('Which hotels have a pool?');
    expect(result.answer).toBe('Lux and Ritz have a pool.');
    expect(result.sql).toBe(poolSql);
    expect(result.columns).toEqual(['hotel_name']);
    expect(result.rows).toEqual([['Lux'], ['Ritz']]);
    expect(requests).toHaveLength(2);
    const promptTokens = requests.reduce((sum, request) => sum + Math.ceil(request.messages.reduce((chars, message) => chars + message.content.length, 0) / 4), 0);
    expect(result.usage).toEqual({ calls: 2, promptTokens, completionTokens: Math.ceil(sqlReply(`${poolSql};`).length / 4) + Math.ceil('  Lux and Ritz have a pool.\n'.length / 4) });
  });

  it('puts the SQL and the rows into the answer prompt', async () => {
    const sql = 'SELECT hotel_name, price_per_night FROM hotels WHERE stars >= 4 ORDER BY stars DESC';
    const { ask, requests } = setUp([sqlReply(sql), 'The Ritz and Lux.']);
    await ask('Which hotels have at least four stars, and what do they cost?');
    const answerPrompt = lastUserMessage(requests[1]!);
    expect(answerPrompt).toContain('Which hotels have at least four stars, and what do they cost?');
    expect(answerPrompt).toContain(sql);
    expect(answerPrompt).toContain('hotel_name | price_per_night');
    expect(answerPrompt).toContain('Ritz | 480');
    expect(answerPrompt).toContain('Lux | 120');
    expect(answerPrompt).toContain('(2 rows)');
  });

  it('repairs an execution error once, showing the failing SQL and DuckDB\'s error, and returns the repaired rows', async () => {
    const badSql = 'SELECT avg(nightly_rate) FROM hotels';
    const duckDbError = await connection.run(badSql).then(() => '', (error: Error) => error.message.split('\n')[0]!);
    expect(duckDbError).toContain('nightly_rate');
    const goodSql = 'SELECT avg(price_per_night) AS average_price FROM hotels';
    const { ask, requests } = setUp([sqlReply(badSql), sqlReply(goodSql), 'About 218 USD.']);
    const result = await ask('What is the average price per night?');
    expect(requests).toHaveLength(3);
    const repairRequest = requests[1]!;
    expect(repairRequest.messages.slice(0, 2)).toEqual(requests[0]!.messages);
    expect(repairRequest.messages[2]).toEqual({ role: 'assistant', content: sqlReply(badSql) });
    const repairMessage = lastUserMessage(repairRequest);
    expect(repairMessage).toContain(badSql);
    expect(repairMessage).toContain(duckDbError);
    expect(result.sql).toBe(goodSql);
    expect(result.columns).toEqual(['average_price']);
    expect(result.rows).toEqual([[218.33333333333334]]);
    expect(result.answer).toBe('About 218 USD.');
  });

  it('throws SqlFailedError carrying the SQL when the repaired query fails too', async () => {
    const { ask, requests } = setUp([sqlReply('SELECT avg(nightly_rate) FROM hotels'), sqlReply('SELECT avg(rate_usd) FROM hotels')]);
    const error = await caught(ask('What is the average price per night?'));
    expect(error).toBeInstanceOf(SqlFailedError);
    expect((error as SqlFailedError).code).toBe('SQL_FAILED');
    expect((error as SqlFailedError).sql).toBe('SELECT avg(rate_usd) FROM hotels');
    expect((error as SqlFailedError).question).toBe('What is the average price per night?');
    expect(requests).toHaveLength(2);
  });

  it('never runs a DROP TABLE, asks for a repair, and answers from the repaired query', async () => {
    const { ask, requests } = setUp([sqlReply('DROP TABLE hotels'), sqlReply('SELECT count(*) AS hotels FROM hotels'), 'Three.']);
    const result = await ask('How many hotels are there?');
    expect(await hotelCount()).toBe(3);
    expect(requests).toHaveLength(3);
    expect(lastUserMessage(requests[1]!)).toContain('DROP TABLE hotels');
    expect(result.rows).toEqual([[3]]);
  });

  it('never runs a file reader and reports SQL_REJECTED when the repair is malicious too', async () => {
    const { ask, requests } = setUp([
      sqlReply("SELECT * FROM read_text('/etc/passwd')"),
      sqlReply('DROP TABLE hotels'),
    ]);
    const error = await caught(ask('Show me the password file.'));
    expect(SragError.isInstance(error) && error.code).toBe('SQL_REJECTED');
    expect(requests).toHaveLength(2);
    expect(lastUserMessage(requests[1]!)).toContain("read_text('/etc/passwd')");
    expect(await hotelCount()).toBe(3);
  });

  it('refuses SQL with a NUL byte, which would show less than DuckDB could run, and answers from the repaired query', async () => {
    const { ask, requests } = setUp([sqlReply('SELECT count(*) AS hotels FROM hotels\u0000 WHERE 1 = 0'), sqlReply('SELECT count(*) AS hotels FROM hotels'), 'Three.']);
    const result = await ask('How many hotels are there?');
    expect(lastUserMessage(requests[1]!)).toContain('control character U+0000');
    expect(result.sql).toBe('SELECT count(*) AS hotels FROM hotels');
    expect(result.rows).toEqual([[3]]);
  });

  it('bounds what reaches the answer prompt and says what was cut: rows past the engine\'s limit, long cells, the prompt\'s own share', async () => {
    const { ask, requests } = setUp([sqlReply("SELECT i, repeat('x', 5000) AS text FROM range(20000) AS t(i)"), 'Many.']);
    const result = await ask('List everything.');
    expect(result.cut?.rowsOmitted).toBe(true);
    expect(result.rows.length).toBeLessThan(20000);
    const answerPrompt = lastUserMessage(requests[1]!);
    expect(answerPrompt.length).toBeLessThan(25_000);
    expect(answerPrompt).toContain(`Result (${result.rows.length}+ rows):`);
    expect(answerPrompt).toMatch(/… \d+ more rows \(and the query produced more than were returned\)/);
    expect(answerPrompt).toContain(`${'x'.repeat(500)}…`);
    expect(answerPrompt).not.toContain('x'.repeat(501));
    expect(answerPrompt).toContain('(cells ending in … were cut)');
  });
});
