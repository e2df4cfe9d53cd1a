/**
 * `srag ask` on the hybrid path (the S-RAG paper's hybrid mode, §3.3): the SQL narrows the table
 * to documents, the answer is read from their text. The table is ingested without `manager_name`,
 * so who manages a hotel is in the pages' text only.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGoldQuestions, rowsMatchGold } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';

interface GoldRecord { document: string; values: Record<string, { value: unknown }> }
interface AskLine {
  answer: string; sql: string; path: 'sql' | 'hybrid'; rows: unknown[][];
  documents?: string[]; selectedDocuments?: number; documentProblems?: Array<{ source: string; problem: string; message: string }>;
}

const hybridQuestion = JSON.parse(readFileSync('examples/hotels/hybrid-questions.jsonl', 'utf8').split('\n')[0]!) as { question: string };
const goldRecords = readFileSync('examples/hotels/gold/records.jsonl', 'utf8').trim().split('\n').map((line) => JSON.parse(line) as GoldRecord);
/** Every Lisbon page and three Paris ones: enough for the SQL to have documents to leave out. */
const ingested = [
  ...goldRecords.filter((record) => record.values.city!.value === 'Lisbon'),
  ...goldRecords.filter((record) => record.values.city!.value === 'Paris').slice(0, 3),
];
/** The pages the hybrid question's SQL selects, from the gold records: 4-star hotels in Lisbon. */
const selected = ingested.filter((record) => record.values.city!.value === 'Lisbon' && record.values.star_rating!.value === 4);
const name = (record: GoldRecord) => String(record.values.hotel_name!.value);
const manager = (record: GoldRecord) => String(record.values.manager_name!.value);

let standIn: LlmStandIn;
const workDirectory = realpathSync(mkdtempSync(join(tmpdir(), 'srag-hybrid-')));
const database = join(workDirectory, 'hotels.duckdb');
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' });
const ask = (args: string[]) => runSragInProcess(['ask', ...args, '--db', database], { environment: environment(), cwd: workDirectory });
/** The documents named in the context of the answer-from-documents requests the stand-in received. */
const documentsInRequests = () => standIn.requests
  .filter((request) => request.kind === 'answer-from-documents')
  .flatMap((request) => [...JSON.stringify(request.body.messages).matchAll(/<document source=\\"([^"\\]+)\\"/g)].map((match) => match[1]!));

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  mkdirSync(join(workDirectory, 'docs'));
  for (const record of ingested) copyFileSync(join('examples/hotels', record.document), join(workDirectory, record.document));
  const schema = JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8'));
  delete schema.properties.manager_name;
  writeFileSync(join(workDirectory, 'schema.json'), JSON.stringify(schema));
  const ingest = await runSragInProcess(['ingest', 'docs', '--schema', 'schema.json', '--db', database], { environment: environment(), cwd: workDirectory });
  expect(ingest.status, ingest.stderr).toBe(0);
});
afterAll(async () => {
  await standIn.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('srag ask on the hybrid path', () => {
  it('reads only the documents the SQL selected when the model takes the hybrid path and cites them, while a question the columns answer stays on the SQL path', async () => {
    standIn.reset();
    const sqlQuestion = readGoldQuestions('examples/hotels').find((entry) => entry.question.includes('hotels in Lisbon') && entry.kind === 'avg')!;
    const run = await ask([hybridQuestion.question, sqlQuestion.question, '--json']);
    expect(run.status, run.stderr).toBe(0);
    const [result, sqlResult] = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as AskLine);
    expect(result!.path).toBe('hybrid');
    expect([...result!.documents!].sort()).toEqual(selected.map((record) => join(workDirectory, record.document)).sort());
    expect(result!.selectedDocuments).toBe(selected.length);
    expect(result!.documentProblems).toEqual([]);
    // The stand-in saw exactly the selected pages, and no other page's text.
    expect(documentsInRequests().sort()).toEqual(selected.map((record) => record.document).sort());
    const prompt = JSON.stringify(standIn.requests.find((request) => request.kind === 'answer-from-documents')!.body.messages);
    for (const other of ingested.filter((record) => !selected.includes(record))) expect(prompt).not.toContain(name(other));
    // The answer comes from the text it read: the managers, which no column holds.
    for (const record of selected) expect(result!.answer).toContain(`${name(record)}: ${manager(record)}`);
    for (const other of ingested.filter((record) => !selected.includes(record))) expect(result!.answer).not.toContain(manager(other));

    expect(sqlResult!.path).toBe('sql');
    expect(sqlResult!.documents).toBeUndefined();
    expect(rowsMatchGold(sqlResult!.rows as never, sqlQuestion.gold)).toBe(true);
    expect(standIn.countByKind()).toEqual({ 'generate-sql': 2, 'answer-from-documents': 1, answer: 1 });
  });

  it('takes the hybrid path when --hybrid forces it, and says so with the documents it read', async () => {
    standIn.reset();
    const run = await ask([hybridQuestion.question, '--hybrid']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain(`Path: hybrid (the answer was read from ${selected.length} documents of the ${selected.length} the SQL selected)`);
    for (const record of selected) expect(run.stdout).toContain(`  read: ${record.document}\n`);
    for (const record of selected) expect(run.stdout.split('\n')[0]).toContain(`${name(record)}: ${manager(record)}`);
    const sqlRequest = JSON.stringify(standIn.requests.find((request) => request.kind === 'generate-sql')!.body);
    expect(sqlRequest).toContain('This question is answered from the documents');
    // Same documents read as by the first question: the answer prompt is the same, so it comes from the cache.
    expect(standIn.countByKind()).toEqual({ 'generate-sql': 1 });
  });

  it('reports a changed and a missing document instead of reading them', async () => {
    const [changed, missing, kept] = [...selected].sort((left, right) => left.document.localeCompare(right.document));
    appendFileSync(join(workDirectory, changed!.document), '\n<p>New management from next spring.</p>\n');
    rmSync(join(workDirectory, missing!.document));
    standIn.reset();
    const run = await ask([hybridQuestion.question, '--hybrid', '--json']);
    expect(run.status, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as AskLine;
    expect(result.documents).toEqual([join(workDirectory, kept!.document)]);
    expect(result.selectedDocuments).toBe(3);
    expect(result.documentProblems!.map((problem) => [problem.source, problem.problem]).sort()).toEqual([
      [join(workDirectory, changed!.document), 'changed'],
      [join(workDirectory, missing!.document), 'missing'],
    ].sort());
    const changedProblem = result.documentProblems!.find((problem) => problem.problem === 'changed')!;
    expect(changedProblem.message).toBe(`${changed!.document}: changed since it was ingested; run srag ingest again so its row matches its text`);
    expect(documentsInRequests()).toEqual([kept!.document]);
    expect(result.answer).toContain(`${name(kept!)}: ${manager(kept!)}`);
    expect(result.answer).not.toContain(manager(changed!));
    expect(result.answer).not.toContain(manager(missing!));
  });
});
