import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeCoverage, type ColumnCoverage, type SqlValue } from '../../core/index.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { AppsScriptHost } from './helpers/apps-script-host/apps-script-host.ts';
import { hasTopLevelOrderBy, sameRows } from '../helpers/compare-sql-rows.ts';
import { buildBundleForTest, preparedSpreadsheet, rangeValues, runSidebarBatch } from './helpers/sheets-fixtures.ts';

const run = promisify(execFile);
const corpora = ['examples/hotels', 'examples/worldcup'] as const;

interface CliAnswer {
  sql: string;
  columns: string[];
  rows: SqlValue[][];
  coverage: ColumnCoverage[] | null;
}

let standIn: LlmStandIn;
let distDirectory: string;
const cliAnswers = new Map<string, CliAnswer[]>();
const hosts = new Map<string, AppsScriptHost>();

function questionsOf(corpus: string): string[] {
  return readFileSync(`${corpus}/questions.jsonl`, 'utf8').trim().split('\n').map((line) => (JSON.parse(line) as { question: string }).question);
}

/** `srag ingest` then `srag ask --json` over a DuckDB file, as a user would run them. */
async function askWithTheCli(corpus: string): Promise<CliAnswer[]> {
  const database = path.join(mkdtempSync(path.join(tmpdir(), 'srag-equivalence-')), 'srag.duckdb');
  const environment = { ...process.env, OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-cli-key-1234', SRAG_MODEL: 'srag-stand-in', SRAG_EXTRACT_MODEL: 'srag-stand-in' };
  await run(process.execPath, ['bin/srag.js', 'ingest', `${corpus}/docs`, '--schema', `${corpus}/schema.json`, '--db', database], { env: environment });
  const { stdout } = await run(process.execPath, ['bin/srag.js', 'ask', ...questionsOf(corpus), '--db', database, '--json'], { env: environment, maxBuffer: 16 * 1024 * 1024 });
  return stdout.trim().split('\n').map((line) => JSON.parse(line) as CliAnswer);
}

/** The same documents extracted in the spreadsheet by the add-on's sidebar batch. */
async function extractInSheets(corpus: string): Promise<AppsScriptHost> {
  const host = new AppsScriptHost(distDirectory);
  await preparedSpreadsheet(host, { corpus, baseUrl: standIn.url });
  const outcome = await runSidebarBatch(host, { parallelCalls: 3, chunkSize: 8 });
  expect(outcome.progress.failed).toBe(0);
  return host;
}

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: [...corpora] });
  distDirectory = await buildBundleForTest();
  await Promise.all(corpora.map(async (corpus) => {
    const [answers, host] = await Promise.all([askWithTheCli(corpus), extractInSheets(corpus)]);
    cliAnswers.set(corpus, answers);
    hosts.set(corpus, host);
  }));
}, 120_000);

afterAll(async () => {
  for (const host of hosts.values()) await host.close();
  await standIn.close();
});

/** SRAG_ASK's cells as query rows: a single value, or a header row and rows (query column dropped). */
function cellsToRows(cells: unknown[][], columns: number): SqlValue[][] {
  if (cells.length === 1 && cells[0]!.length === 1) return cells[0]![0] === '(no rows)' ? [] : [[cells[0]![0] as SqlValue]];
  return cells.slice(1).map((row) => row.slice(0, columns).map((cell) => (cell === '' ? null : cell as SqlValue)));
}

describe.each(corpora)('=SRAG_ASK over the Records the add-on extracted from %s', (corpus) => {
  it.each(questionsOf(corpus).map((question, index) => [question, index]))('answers "%s" as `srag ask --json` does over DuckDB', async (question, index) => {
    const expected = cliAnswers.get(corpus)![index as number]!;
    const host = hosts.get(corpus)!;
    const cells = await host.runCustomFunction<unknown[][]>('SRAG_ASK', [question, rangeValues(host, 'Records'), false]);
    const rows = cellsToRows(cells, expected.columns.length);
    expect(typeof cells[0]![0] === 'string' && String(cells[0]![0]).startsWith('⚠')).toBe(false);
    if (!sameRows(rows, expected.rows, hasTopLevelOrderBy(expected.sql))) expect({ question, rows }).toEqual({ question, rows: expected.rows });
  });
});

describe('=SRAG_ASK coverage over the hotels Records', () => {
  it('notes, next to the query, the same counts of present, missing and dropped values as `srag ask --json` over DuckDB', async () => {
    const host = hosts.get('examples/hotels')!;
    const questions = questionsOf('examples/hotels');
    const wording = (coverage: ColumnCoverage[] | null) => describeCoverage(coverage ?? undefined, { title: 'Hotels', whereToLook: () => 'see the _error column', whereToCheck: (_, document) => `see the row of ${document}` }) ?? '';
    let notes = 0;
    for (const [index, question] of questions.entries()) {
      const expected = cliAnswers.get('examples/hotels')![index]!;
      const cells = await host.runCustomFunction<unknown[][]>('SRAG_ASK', [question, rangeValues(host, 'Records')]);
      const width = cells.length === 1 && cells[0]!.length <= 3 && expected.rows.length <= 1 && expected.columns.length === 1 ? 1 : expected.columns.length;
      const note = String(cells[0]![width + 1] ?? '');
      expect({ question, note }).toEqual({ question, note: wording(expected.coverage) });
      if (note) notes += 1;
    }
    // The sample leaves values out of some pages: some answers rest on incomplete columns.
    expect(notes).toBeGreaterThan(3);
  });
});
