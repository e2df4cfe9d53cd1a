import { DuckDBInstance } from '@duckdb/node-api';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuestionReport, SqlValue } from '../../core/index.ts';
import { documentText } from '../../core/index.ts';
import { countTokens } from '../../node/runtime/count-tokens.ts';
import { createGoldTable, type GoldRecord } from '../../examples/hotels/gold-format.ts';
import { readGoldQuestions, rowsMatchGold, type GoldQuestion } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { repositoryRoot, runSrag } from '../helpers/run-srag.ts';

let standIn: LlmStandIn;
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-eval-'));
const database = join(workDirectory, 'hotels.duckdb');
const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' });
const hotels = join(repositoryRoot, 'examples/hotels');
const questions = readGoldQuestions('examples/hotels');
const goldRecords = readFileSync(join(hotels, 'gold/records.jsonl'), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as GoldRecord);
const goldSchema = JSON.parse(readFileSync(join(hotels, 'schema.json'), 'utf8')) as unknown;
/** The settings of the sample run: the corpus is ~7,600 tokens, so the baselines see part of it, as in the paper. */
const baselineSettings = ['--top-k', '10', '--context-tokens', '4000'];

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  const ingest = await runSragInProcess(['ingest', 'examples/hotels/docs', '--schema', 'examples/hotels/schema.json', '--db', database], { environment: environment() });
  expect(ingest.status, ingest.stderr).toBe(0);
});
afterAll(async () => {
  await standIn.close();
});

/**
 * What a model that reasons perfectly over the documents it was shown must answer, computed here
 * without the stand-in or the metric: the question's gold SQL over the gold records of exactly
 * those documents, compared with the gold exactly.
 */
async function answerableFrom(sources: string[], question: GoldQuestion): Promise<boolean> {
  const visible = goldRecords.filter((record) => sources.some((source) => source.endsWith(`/${record.document}`)));
  // One thread: starting and joining a thread per core cost more than the query over 50 rows.
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const connection = await instance.connect();
  try {
    await createGoldTable(connection, goldSchema, visible);
    const rows = (await connection.runAndReadAll(question.sql)).getRowsJson().map((row) => row.map((cell) =>
      (typeof cell === 'string' && /^-?\d+(\.\d+)?$/.test(cell) && typeof question.gold !== 'string' ? Number(cell) : cell) as SqlValue));
    return rowsMatchGold(rows, question.gold);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

function readReport(path: string): QuestionReport[] {
  return readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as QuestionReport);
}

describe('srag eval over the hotels sample corpus, with the LLM stand-in', () => {
  it('gets every question right with srag, and with the baselines exactly those their context can answer', async () => {
    const reportPath = join(workDirectory, 'report.jsonl');
    const run = await runSragInProcess(['eval', '--questions', 'examples/hotels/questions.jsonl', '--db', database, ...baselineSettings, '-o', reportPath], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/rag: no embeddings endpoint \(.*404.*\); retrieving with BM25 keyword search/);
    expect(run.stdout).toMatch(/^srag: SQL over table "hotels" \(14 columns, 50 rows\)$/m);
    expect(run.stdout).toMatch(/^rag: BM25 top-10 of 50 chunks of ≤500 tokens, context ≤4000 tokens$/m);
    const reports = readReport(reportPath);
    // Some sample pages leave values out: the summary counts the srag answers that rest on such columns.
    const incomplete = reports.filter((report) => report.system === 'srag' && report.incompleteCoverage === true).length;
    expect(incomplete).toBeGreaterThan(0);
    expect(run.stdout).toMatch(new RegExp(`^srag +26 +0 +${incomplete} +1\\.000 +1\\.000 +1\\.000 `, 'm'));
    expect(run.stdout).toMatch(/^rag +26 +0 +– /m);
    expect(reports.map((report) => report.system)).toEqual([...Array(26).fill('srag'), ...Array(26).fill('rag'), ...Array(26).fill('full-corpus')]);
    const bySystem = (system: string) => reports.filter((report) => report.system === system);

    const srag = bySystem('srag');
    expect(srag.map((report) => report.sql)).toEqual(questions.map((question) => question.sql));
    expect(srag.every((report) => report.verdicts.deterministic.correct && report.verdicts.answerComparison?.correct === true && report.verdicts.answerRecall?.recall === 1)).toBe(true);

    // full-corpus sees the documents in path order, as many whole pages as fit in 4000 tokens.
    const paths = readdirSync(join(hotels, 'docs')).sort().map((name) => `examples/hotels/docs/${name}`);
    const fitting: string[] = [];
    let used = 0;
    for (const path of paths) {
      used += countTokens(documentText(path, readFileSync(join(repositoryRoot, path), 'utf8')));
      if (used > 4000) break;
      fitting.push(path);
    }
    expect(bySystem('full-corpus').every((report) => JSON.stringify(report.contextSources) === JSON.stringify(fitting))).toBe(true);
    expect(bySystem('rag').every((report) => report.contextSources!.length >= 1 && report.contextSources!.length <= 10)).toBe(true);

    for (const system of ['rag', 'full-corpus']) {
      const systemReports = bySystem(system);
      const expected = await Promise.all(systemReports.map((report, index) => answerableFrom(report.contextSources!, questions[index]!)));
      expect(systemReports.map((report) => report.verdicts.deterministic.correct), `${system}, deterministic`).toEqual(expected);
      expect(systemReports.map((report) => report.verdicts.answerComparison?.correct), `${system}, answer comparison`).toEqual(expected);
      // Mostly wrong: aggregates over part of the corpus miss the documents they did not see.
      expect(expected.filter(Boolean).length, system).toBeLessThan(questions.length / 2);
      const recalls = systemReports.map((report) => report.verdicts.answerRecall!.recall);
      expect(recalls.every((recall, index) => (expected[index] ? recall === 1 : recall < 1))).toBe(true);
    }
  });

  it('runs one system with the deterministic metric alone, without any judge request', async () => {
    standIn.reset();
    // No --db: the documents come from --docs and nothing is cached, so every answer is a request.
    const run = await runSragInProcess(['eval', '--questions', 'examples/hotels/questions.jsonl', '--docs', 'examples/hotels/docs', '--system', 'full-corpus', '--no-judge', '--context-tokens', '4000'], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(standIn.countByKind()).toEqual({ 'answer-from-context': 26 });
    expect(run.stdout).toMatch(/^full-corpus +26 +0 +– +0\.\d{3} +– +– /m);
    expect(run.stdout).not.toMatch(/^srag /m);
  });

  it('ingests and evaluates a dataset in the AI21 layout (corpus.jsonl and questions.jsonl) in one command', async () => {
    const dataset = join(workDirectory, 'ai21-layout');
    mkdirSync(dataset);
    const documents = readdirSync(join(hotels, 'docs')).sort().map((name) => ({ id: name, text: readFileSync(join(hotels, 'docs', name), 'utf8') }));
    writeFileSync(join(dataset, 'corpus.jsonl'), documents.map((document) => JSON.stringify(document)).join('\n'));
    writeFileSync(join(dataset, 'questions.jsonl'), questions.map((question) => JSON.stringify({ question: question.question, answer: question.answer })).join('\n'));
    const run = await runSragInProcess(['eval', '--dataset', dataset, '--db', join(workDirectory, 'ai21.duckdb'), '--schema', 'examples/hotels/schema.json', '--system', 'srag', '--no-judge'], { environment: environment() });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('50 documents ("id", "text"), 26 questions ("question", "answer")');
    expect(run.stderr).toContain('hotels: 50 ingested, 0 unchanged, 0 failed');
    expect(run.stdout).toMatch(/^srag +26 +0 +\d+ +1\.000 /m);
  });

  it('fails with a one-line error naming the problem when the questions file is malformed', async () => {
    const bad = join(workDirectory, 'bad.jsonl');
    writeFileSync(bad, '{"question": "How many hotels are in Rome?"}\n');
    const run = await runSrag(['eval', '--questions', bad, '--db', database], { environment: environment() });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe(`srag: ${bad}:1 has no "answer" (the gold answer as text) — each line must be a JSON object like {"question": "...", "answer": "...", "sql": "...", "gold": 3}`);
  });
});
