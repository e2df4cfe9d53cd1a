import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { openSqlSession, type SqlSession } from '../../node/sql-functions/harness/sql-session.ts';
import { readGoldQuestions, rowsMatchGold } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { extractionCallCount, requestedAttributesPerDocument } from '../helpers/requested-attributes.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';

// One table ingested without two attributes; srag_ask(…, extend := true) in a SQL session over it.

let standIn: LlmStandIn;
let session: SqlSession;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-ask-extend-'));
const database = join(workDirectory, 'hotels.duckdb');
const leftOut = ['has_airport_shuttle', 'pets_allowed'];
const questions = readGoldQuestions('examples/hotels');
const shuttle = questions.find((question) => question.sql.includes('has_airport_shuttle'))!;
// SRAG_CONFIRM_DOCUMENTS is 10: `srag ask` on a terminal would ask about these 50 documents; SQL has no one to ask.
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8', SRAG_CONFIRM_DOCUMENTS: '10' });
const sqlString = (text: string) => `'${text.replace(/'/g, "''")}'`;

interface SchemaExtension {
  added_attributes: string[];
  extraction_usage: { calls: number; documents: number };
  backfill_estimate: { documents: number; calls: number } | null;
  not_backfilled: unknown[];
}

/** Per document sent to the model, the attribute names its request asked for. */
const extractionRequests = () => requestedAttributesPerDocument(standIn.requests);

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  const schema = JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8'));
  for (const name of leftOut) delete schema.properties[name];
  const schemaFile = join(workDirectory, 'lean.schema.json');
  writeFileSync(schemaFile, JSON.stringify(schema));
  for (const [name, value] of Object.entries(environment())) vi.stubEnv(name, value);
  const ingested = await runCommandInProcess((signal) => ingestCommand(['examples/hotels/docs/*'], { schema: schemaFile, db: database, evidence: true }, signal));
  vi.unstubAllEnvs();
  expect(ingested.status, ingested.stderr).toBe(0);
  session = await openSqlSession(database, { environment: environment(), progress: false });
});
afterAll(async () => {
  await session?.close();
  await standIn?.close();
});

describe('srag_ask(question, extend := true)', () => {
  it('without extend names the missing attribute and the form that adds it', async () => {
    const refused = await session.run(`SELECT * FROM srag_ask(${sqlString(shuttle.question)}, 'hotels')`).catch((error: Error) => error);
    expect(String(refused)).toMatch(/has_airport_shuttle/);
    expect(String(refused)).toContain(`srag_ask(${sqlString(shuttle.question)}, 'hotels', extend := true)`);
  });

  it('adds the attribute, back-fills only it from every document without asking, and answers exactly in the same statement', async () => {
    standIn.reset();
    const result = await session.run(`SELECT result, schema_extension FROM srag_ask(${sqlString(shuttle.question)}, 'hotels', extend := true)`);
    const [resultJson, extensionJson] = result.rows[0]!;
    const rows = (JSON.parse(String(resultJson)) as Array<Record<string, unknown>>).map((row) => Object.values(row));
    expect(rowsMatchGold(rows as never, shuttle.gold), JSON.stringify(rows)).toBe(true);
    const extension = JSON.parse(String(extensionJson)) as SchemaExtension;
    expect(extension).toMatchObject({ added_attributes: ['has_airport_shuttle'], extraction_usage: { documents: 50 }, backfill_estimate: { documents: 50 }, not_backfilled: [] });
    // Only the new attribute, for every document, at most one request per document (short ones share one).
    const requested = extractionRequests();
    expect(requested).toHaveLength(50);
    expect(requested.every((names) => names.join() === 'has_airport_shuttle')).toBe(true);
    expect(extension.extraction_usage.calls).toBe(extractionCallCount(standIn.requests));
    expect(extension.extraction_usage.calls).toBeGreaterThan(0);
    expect(extension.extraction_usage.calls).toBeLessThanOrEqual(50);
  });

  it('keeps the grown table once the statement is done: the column, its evidence, the stored schema and statistics', async () => {
    // pets_allowed was left out too and no question asked for it: it stays out.
    const [filled, evidence, schemaNames, statistics] = (await session.run(`SELECT
      (SELECT count(has_airport_shuttle) FROM hotels),
      (SELECT count(*) FROM srag_evidence WHERE table_name = 'hotels' AND attribute = 'has_airport_shuttle'),
      (SELECT json_keys(schema_json -> 'properties') FROM srag_tables WHERE table_name = 'hotels'),
      (SELECT statistics_json LIKE '%has_airport_shuttle%' FROM srag_tables WHERE table_name = 'hotels')`)).rows[0]!;
    expect(Number(filled)).toBeGreaterThan(0);
    expect(Number(evidence)).toBe(50);
    expect(schemaNames).toContain('has_airport_shuttle');
    expect(schemaNames).not.toContain('pets_allowed');
    expect(statistics).toBe(true);
  });

  it('costs no extraction call when asked again, in the one-argument form too', async () => {
    standIn.reset();
    const [resultJson, extensionJson] = (await session.run(`SELECT result, schema_extension FROM srag_ask(${sqlString(shuttle.question)}, extend := true)`)).rows[0]!;
    expect(JSON.parse(String(extensionJson))).toMatchObject({ added_attributes: [], extraction_usage: { calls: 0 }, backfill_estimate: null });
    expect(extractionRequests()).toEqual([]);
    const rows = (JSON.parse(String(resultJson)) as Array<Record<string, unknown>>).map((row) => Object.values(row));
    expect(rowsMatchGold(rows as never, shuttle.gold), JSON.stringify(rows)).toBe(true);
  });

  it('refuses to extend a table it has no documents for, saying how to add the attributes instead', async () => {
    await session.run("CREATE TABLE one_hotel AS SELECT * FROM srag_extract('examples/hotels/docs/amber-arch-hotel.md', schema := 'examples/hotels/schema.json')");
    try {
      const refused = await session.run(`SELECT * FROM srag_ask(${sqlString(shuttle.question)}, 'one_hotel', extend := true)`).catch((error: Error) => error);
      expect(String(refused)).toMatch(/grows a table srag ingest made, whose documents it knows; the question is asked of "one_hotel" \(made by srag_extract\) — extract the attributes with srag_extract/);
    } finally {
      await session.run('DROP TABLE one_hotel');
    }
  });
});
