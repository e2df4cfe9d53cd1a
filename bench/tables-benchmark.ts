/**
 * Table-choice benchmark: `npm run bench:tables [-- --decoys 200] [--repeats 5] [--output-dir DIR]`
 *
 * Builds the database a user with many tables has: the hotels and World Cup sample corpora ingested
 * (the real CLI, against the LLM stand-in), the cities reference table imported from CSV, and N
 * generated decoy tables (default 200) imported beside them — several with the same words and values
 * (city, country, population, year, price). Then, for every test question (examples/cities/questions.jsonl
 * plus one-table questions of the two corpora), it measures, with no model call involved:
 * - choice time: `chooseTables` over the DuckDB catalog (value lookup in DuckDB included), median of
 *   the repeats; goal < 1 s;
 * - prompt tokens (o200k) of the text-to-SQL system message for the chosen tables, next to the same
 *   prompt carrying every table (what a model would read without table choice); goal well under 8k;
 * - choice accuracy: chosen set equal to the gold tables (and gold tables all chosen).
 * Also the import time per table at that size (profile, sketches and links included).
 * Prints a table and writes JSON to bench/results/. Timings are measurements of this machine.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chooseRecordTables, recordTables, type RecordTableChoice } from '../app/index.ts';
import { renderSqlInstructions } from '../core/index.ts';
import { readTableLinks, readTableSnapshotOver } from '../node/duckdb/catalog/read-table-snapshot.ts';
import { importTable } from '../node/duckdb/catalog/import-table.ts';
import { countTokens } from '../node/runtime/count-tokens.ts';
import { duckDbSqlDialect } from '../node/duckdb/duckdb-sql-dialect.ts';
import { loadPromptLibrary } from '../node/runtime/load-prompt-library.ts';
import { SragStore } from '../node/duckdb/store/srag-store.ts';
import { generateDecoyTables } from '../tests/helpers/decoy-tables.ts';
import { readGoldQuestions } from '../tests/helpers/gold-questions.ts';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';

const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    decoys: { type: 'string', default: '200' },
    repeats: { type: 'string', default: '5' },
    'output-dir': { type: 'string', default: fileURLToPath(new URL('./results/', import.meta.url)) },
  },
});
const decoyCount = Number(flags.decoys);
const repeats = Number(flags.repeats);

function runCli(args: string[], environment: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(repositoryRoot, 'bin/srag.js'), ...args], { cwd: repositoryRoot, env: { ...process.env, ...environment }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.on('close', (status) => (status === 0 ? resolve() : reject(new Error(`srag ${args.join(' ')} failed: ${stderr}`))));
  });
}

const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;

const questions = [
  ...readGoldQuestions('examples/cities').map((question) => ({ question: question.question, tables: (question as unknown as { tables: string[] }).tables })),
  ...readGoldQuestions('examples/hotels').slice(0, 4).map((question) => ({ question: question.question, tables: ['hotels'] })),
  ...readGoldQuestions('examples/worldcup').slice(0, 3).map((question) => ({ question: question.question, tables: ['world_cup_tournament'] })),
];

const workDirectory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-tables-'));
const database = path.join(workDirectory, 'tables.duckdb');
const standIn = await startLlmStandIn({ corpora: ['examples/hotels', 'examples/worldcup'] });
try {
  const environment = { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-bench-not-a-real-key' };
  for (const corpus of ['examples/hotels', 'examples/worldcup']) await runCli(['ingest', `${corpus}/docs`, '--schema', `${corpus}/schema.json`, '--db', database], environment);
  const store = await SragStore.open(database);
  try {
    await store.exclusive((connection) => importTable(connection, { file: path.join(repositoryRoot, 'examples/cities/cities.csv'), databasePath: database, table: 'cities' }));
    const importSeconds: number[] = [];
    for (const decoy of generateDecoyTables(decoyCount)) {
      const file = path.join(workDirectory, `${decoy.name}.csv`);
      writeFileSync(file, decoy.csv);
      const started = performance.now();
      await store.exclusive((connection) => importTable(connection, { file, databasePath: database }));
      importSeconds.push((performance.now() - started) / 1000);
    }
    const prompts = loadPromptLibrary();
    // As a question reads them: one snapshot of the database's tables (value lookup in DuckDB included), then the choice.
    const chooseFor = async (question: string) => {
      const snapshot = await store.exclusive((connection) => readTableSnapshotOver(connection, question, undefined));
      return chooseRecordTables(snapshot, recordTables(snapshot), question, undefined, 'the benchmark database', (tables) => store.exclusive((connection) => readTableLinks(connection, tables)));
    };
    const allTables = recordTables(await store.exclusive((connection) => readTableSnapshotOver(connection, '', undefined)));
    const fullPromptTokens = countTokens(renderSqlInstructions(prompts, allTables, [], duckDbSqlDialect));
    const rows = [];
    for (const { question, tables: gold } of questions) {
      const seconds: number[] = [];
      let choice: RecordTableChoice | undefined;
      for (let repeat = 0; repeat < repeats; repeat += 1) {
        const started = performance.now();
        choice = await chooseFor(question);
        seconds.push((performance.now() - started) / 1000);
      }
      const chosen = choice!.tables.map((table) => table.name);
      const promptTokens = countTokens(renderSqlInstructions(prompts, choice!.tables, choice!.joins, duckDbSqlDialect));
      rows.push({
        question, gold, chosen, exact: [...chosen].sort().join() === [...gold].sort().join(), recalled: gold.every((table) => chosen.includes(table)),
        choiceSeconds: median(seconds), promptTokens,
      });
    }
    const summary = {
      tables: allTables.length,
      decoys: decoyCount,
      questions: rows.length,
      exactChoice: rows.filter((row) => row.exact).length,
      goldTablesAllChosen: rows.filter((row) => row.recalled).length,
      choiceSecondsMedian: median(rows.map((row) => row.choiceSeconds)),
      choiceSecondsMaximum: Math.max(...rows.map((row) => row.choiceSeconds)),
      promptTokensMaximum: Math.max(...rows.map((row) => row.promptTokens)),
      promptTokensAllTables: fullPromptTokens,
      importSecondsMedian: median(importSeconds),
      importSecondsLast: importSeconds.at(-1) ?? 0,
    };
    for (const row of rows) {
      process.stdout.write(`${row.exact ? 'ok  ' : 'MISS'} ${row.choiceSeconds.toFixed(3)} s ${String(row.promptTokens).padStart(5)} tokens  ${row.chosen.join(', ').padEnd(32)} ${row.question}\n`);
    }
    process.stdout.write(
      `\n${summary.tables} tables (${decoyCount} decoys): table choice exact on ${summary.exactChoice}/${summary.questions} questions ` +
      `(gold tables all chosen on ${summary.goldTablesAllChosen}/${summary.questions}); choice time median ${summary.choiceSecondsMedian.toFixed(3)} s, ` +
      `max ${summary.choiceSecondsMaximum.toFixed(3)} s (goal < 1 s); SQL prompt at most ${summary.promptTokensMaximum} tokens ` +
      `(goal well under 8,000; with every table it would be ${summary.promptTokensAllTables}); import ${summary.importSecondsMedian.toFixed(3)} s per table (median)\n`,
    );
    mkdirSync(flags['output-dir'], { recursive: true });
    const output = path.join(flags['output-dir'], `tables-${decoyCount}-decoys-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(output, `${JSON.stringify({ summary, rows }, null, 2)}\n`);
    process.stdout.write(`wrote ${path.relative(repositoryRoot, output)}\n`);
  } finally {
    store.close();
  }
} finally {
  await standIn.close();
  rmSync(workDirectory, { recursive: true, force: true });
}
