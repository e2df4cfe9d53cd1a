import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askQuestion, computeStatistics, contentHash, ModelClient, parseRecordSchema, type AnswerPathChoice, type DocumentReader, type LanguageModelRequest } from '../../core/index.ts';
import { DuckDbSqlEngine } from '../../node/duckdb/duckdb-sql-engine.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { createRecordingLanguageModel, type ScriptedReply } from '../helpers/recording-language-model.ts';

const schema = parseRecordSchema({
  title: 'Hotel',
  properties: {
    hotel_name: { type: 'string', description: 'Name of the hotel.' },
    has_pool: { type: 'boolean', description: 'Whether the hotel has a swimming pool.' },
  },
});
const filler = (words: string) => Array.from({ length: 60 }, () => words).join(' ');
const pages: Record<string, string> = {
  'lux.html': `<h1>Lux</h1><p>${filler('Rooms face the garden.')}</p><p>The spa offers massages and a sauna.</p>`,
  'ritz.html': `<h1>Ritz</h1><p>${filler('Rooms face the square.')}</p><p>Breakfast is served until noon.</p>`,
  'inn.html': '<h1>Budget Inn</h1><p>No pool, no spa.</p>',
};
const rows = [
  { hotel_name: 'Lux', has_pool: true, _source: 'lux.html' },
  { hotel_name: 'Ritz', has_pool: true, _source: 'ritz.html' },
  { hotel_name: 'Budget Inn', has_pool: false, _source: 'inn.html' },
];
const prompts = loadPromptLibrary();
const statistics = computeStatistics(schema, rows);

let connection: DuckDBConnection;
let sqlEngine: DuckDbSqlEngine;

beforeAll(async () => {
  connection = await (await DuckDBInstance.create(':memory:')).connect();
  await connection.run(`CREATE TABLE hotels (hotel_name VARCHAR, has_pool BOOLEAN, "_source" VARCHAR);
    INSERT INTO hotels VALUES ('Lux', true, 'lux.html'), ('Ritz', true, 'ritz.html'), ('Budget Inn', false, 'inn.html');`);
  sqlEngine = new DuckDbSqlEngine(connection);
});
afterAll(() => connection.closeSync());

/** Documents from memory, with the hashes recorded at "ingestion"; every read is counted. */
function memoryReader(): DocumentReader & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    recordedHashes: async (sources) => new Map(sources.filter((source) => source in pages).map((source) => [source, contentHash(pages[source]!)])),
    read: async (source) => {
      reads.push(source);
      return pages[source]!;
    },
  };
}

function setUp(replies: ScriptedReply[], answerPath: AnswerPathChoice, budget: { chunkTokens?: number; contextTokens?: number } = {}) {
  const model = createRecordingLanguageModel(replies);
  const client = new ModelClient({ languageModel: model.languageModel, sleep: async () => {} });
  const reader = memoryReader();
  const ask = (question: string) => askQuestion({ client, prompts, sqlEngine, tables: [{ name: 'hotels', schema, statistics, origin: 'extracted' }], question, answerPath, hybrid: { reader, ...budget } });
  return { ...model, reader, ask };
}

const reply = (sql: string, path?: string) => JSON.stringify({ sql, ...(path ? { path } : {}) });
const userText = (request: LanguageModelRequest) => request.messages.filter((message) => message.role === 'user').at(-1)!.content;

describe('askQuestion on the hybrid path', () => {
  it('sends a hybrid query that returns no "_source" column to the repair round, then reads the documents the repaired query selects', async () => {
    const { ask, requests, reader } = setUp([
      reply('SELECT hotel_name FROM hotels WHERE has_pool', 'hybrid'),
      reply('SELECT "_source" FROM hotels WHERE has_pool', 'hybrid'),
      'Lux has a spa (lux.html).',
    ], 'auto');
    const result = await ask('What do the pages of hotels with a pool say about wellness?');
    expect(userText(requests[1]!)).toContain('the query must return the "_source" column; it returned "hotel_name"');
    expect(requests[0]!.outputSchema?.schema).toMatchObject({ required: ['sql', 'path', 'missing_attributes'] });
    expect(result.path).toBe('hybrid');
    expect(reader.reads.sort()).toEqual(['lux.html', 'ritz.html']);
    expect(result.documents).toEqual(['lux.html', 'ritz.html']);
    expect(result.answer).toBe('Lux has a spa (lux.html).');
    expect(result.usage.calls).toBe(3);
  });

  it('keeps to the context budget with the passages that share the question\'s words, and cites only their documents', async () => {
    const { ask, requests } = setUp([reply('SELECT "_source" FROM hotels WHERE has_pool ORDER BY hotel_name DESC'), 'The Lux page mentions a spa.'], 'hybrid', { chunkTokens: 100, contextTokens: 150 });
    const result = await ask('Which of the hotels with a pool mention a spa with a sauna?');
    const answerPrompt = userText(requests[1]!);
    expect(answerPrompt).toContain('The spa offers massages and a sauna.');
    expect(answerPrompt).not.toContain('Breakfast is served until noon.');
    expect(answerPrompt).toContain('The query selected 2 documents. The context holds the passages most related to the question, from 1 document.');
    expect(result.selectedDocuments).toBe(2);
    expect(result.documents).toEqual(['lux.html']);
  });

  it('reads every selected document whole when they fit, in the order the query returned them', async () => {
    const { ask, requests } = setUp([reply('SELECT "_source" FROM hotels WHERE has_pool ORDER BY hotel_name DESC'), 'Both.'], 'hybrid');
    const result = await ask('What do the pages of hotels with a pool say?');
    const answerPrompt = userText(requests[1]!);
    expect(answerPrompt.indexOf('<document source="ritz.html">')).toBeGreaterThan(0);
    expect(answerPrompt.indexOf('<document source="ritz.html">')).toBeLessThan(answerPrompt.indexOf('<document source="lux.html"'));
    expect(answerPrompt).toContain('The context holds the whole text of 2 documents.');
    expect(result.documents).toEqual(['ritz.html', 'lux.html']);
  });

  it('answers from the rows when the model says the columns hold the answer, reading no document', async () => {
    const { ask, reader } = setUp([reply('SELECT count(*) FROM hotels WHERE has_pool', 'sql'), '2'], 'auto');
    const result = await ask('How many hotels have a pool?');
    expect(result.path).toBe('sql');
    expect(result.documents).toBeUndefined();
    expect(reader.reads).toEqual([]);
  });

  it('keeps the SQL-only prompt and reply shape when no hybrid path is allowed', async () => {
    const { ask, requests } = setUp([reply('SELECT "_source" FROM hotels', 'hybrid'), 'Three.'], 'sql');
    const result = await ask('Which documents are there?');
    expect(requests[0]!.messages[0]!.content.trimEnd().split('\n').at(-1)).toBe('Reply with a JSON object: {"sql": "<the query>"}');
    expect(requests[0]!.messages[0]!.content).not.toContain('hybrid');
    expect(requests[0]!.outputSchema?.schema).toMatchObject({ required: ['sql', 'missing_attributes'] });
    expect(result.path).toBe('sql');
  });

  it('refuses to answer when none of the selected documents can be read as ingested', async () => {
    const { ask } = setUp([reply('SELECT \'gone.html\' AS "_source"')], 'hybrid');
    await expect(ask('What does the gone page say?')).rejects.toThrow(/^none of the 1 document the query selected can be read as ingested: gone\.html: not in the ingestion log/);
  });
});
