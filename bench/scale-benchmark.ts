/**
 * Scale benchmark: `npm run bench:scale [-- --rows N] [--repeats R] [--output-dir DIR]`
 *
 * Grows the hotels record table to N rows (default 1,000,000) and measures what a user at that size
 * meets, against the LLM stand-in (a loopback OpenAI-compatible server answering from gold data):
 * - `srag ask` (the real CLI, a child process): wall time and peak RSS at 50 rows and at N rows, for
 *   questions of several kinds; the difference of the medians is what the table's size adds;
 * - the SQL stage alone, in this process: `DuckDbSqlEngine.runReadOnlyQuery` (export of the columns
 *   the query names, sandbox, bounded read) next to the same query run directly on the database
 *   (the ideal: no sandbox at all), as seconds and as a ratio;
 * - `srag_ask` in SQL (`srag sql -c`) at N rows: wall time and peak RSS;
 * - `srag ingest` into the N-row table: with no document changed, and with one changed document
 *   (one model call, then statistics over all N rows): wall time, peak RSS, and that it succeeded.
 * The copies get ingestion-log entries like real documents (so `ingest` reads an N-entry log), but no
 * evidence rows. Goals (issue 8): SQL stage ≤ 1 s and ≤ 600 MB RSS at 1 M rows; ingest succeeds.
 * Prints a table and writes JSON to bench/results/. Timings are measurements of this machine.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDbSqlEngine } from '../node/duckdb/duckdb-sql-engine.ts';
import { SragStore } from '../node/duckdb/store/srag-store.ts';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { runCliMeasured, type CliRun } from './run-cli-measured.ts';

const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));

const { values: flags } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000000' },
    repeats: { type: 'string', default: '3' },
    'output-dir': { type: 'string', default: fileURLToPath(new URL('./results/', import.meta.url)) },
  },
});
const requestedRows = Number(flags.rows);
const repeats = Number(flags.repeats);
if (!Number.isInteger(requestedRows) || requestedRows < 50 || !Number.isInteger(repeats) || repeats < 1) {
  process.stderr.write('bench: --rows must be a whole number ≥ 50 and --repeats ≥ 1\n');
  process.exit(2);
}

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;
const seconds = (milliseconds: number) => Number((milliseconds / 1000).toFixed(3));
const megabytes = (kilobytes: number) => Math.round(kilobytes / 1024);

async function repeated(label: string, args: string[], cwd: string, environment: Record<string, string>) {
  const runs: CliRun[] = [];
  for (let index = 0; index < repeats; index += 1) {
    const run = await runCliMeasured(args, cwd, environment);
    if (run.status !== 0) throw new Error(`${label} failed (exit ${run.status}): ${run.stderr.trim().split('\n').at(-1)}`);
    runs.push(run);
  }
  return {
    seconds: seconds(median(runs.map((run) => run.milliseconds))),
    peakRssMegabytes: megabytes(runs.reduce((most, run) => Math.max(most, run.peakRssKilobytes), 0)),
    stdout: runs[0]!.stdout,
  };
}

/**
 * The sandbox's rows agree with DuckDB's own: the same rows, or — when the sandbox returned only the
 * first rows of a larger result (its row cap) — rows that all occur in DuckDB's result, which is larger.
 */
function consistentRows(sandboxed: unknown[][], direct: unknown[][], cut: boolean): boolean {
  const key = (row: unknown[]) => JSON.stringify(row.map(String));
  if (!cut) return JSON.stringify(sandboxed.map(key)) === JSON.stringify(direct.map(key));
  const available = new Map<string, number>();
  for (const row of direct) available.set(key(row), (available.get(key(row)) ?? 0) + 1);
  for (const row of sandboxed) {
    const left = available.get(key(row)) ?? 0;
    if (left === 0) return false;
    available.set(key(row), left - 1);
  }
  return direct.length > sandboxed.length;
}

const kinds = ['count', 'avg', 'argmax', 'group_by'];
const goldQuestions = readFileSync(path.join(repositoryRoot, 'examples/hotels/questions.jsonl'), 'utf8').trim().split('\n')
  .map((line) => JSON.parse(line) as { question: string; sql: string; kind: string });
const questions = kinds.map((kind) => goldQuestions.find((question) => question.kind === kind)!).filter(Boolean);

async function run() {
  const workDirectory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-scale-'));
  const standIn = await startLlmStandIn({ corpora: ['examples/hotels'] });
  const environment = { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'bench-not-a-key', SRAG_CONCURRENCY: '8' };
  try {
    cpSync(path.join(repositoryRoot, 'examples/hotels/docs'), path.join(workDirectory, 'docs'), { recursive: true });
    cpSync(path.join(repositoryRoot, 'examples/hotels/schema.json'), path.join(workDirectory, 'schema.json'));
    const ingestArgs = ['ingest', 'docs/*', '--schema', 'schema.json', '--db', 'scale.duckdb'];
    log('ingesting the 50 hotel pages');
    const first = await runCliMeasured(ingestArgs, workDirectory, environment);
    if (first.status !== 0) throw new Error(`the first ingest failed: ${first.stderr}`);

    const askAll = ['ask', ...questions.map((question) => question.question), '--db', 'scale.duckdb', '--json'];
    await runCliMeasured(askAll, workDirectory, environment);
    log(`srag ask at 50 rows (${questions.length} questions, ${repeats} runs)`);
    const askSmall = await repeated('srag ask at 50 rows', askAll, workDirectory, environment);

    const copies = Math.ceil(requestedRows / 50);
    log(`growing the table to ${copies * 50} rows`);
    const store = await SragStore.open(path.join(workDirectory, 'scale.duckdb'));
    let growSeconds = 0;
    let statisticsSeconds = 0;
    const sqlStage: Array<{ kind: string; sandboxSeconds: number; directSeconds: number; ratio: number; sameRows: boolean }> = [];
    try {
      const growStarted = performance.now();
      await store.connection.run(`INSERT INTO hotels SELECT h.* REPLACE ('synthetic/' || copy || '/' || h."_source" AS "_source") FROM hotels AS h, range(1, ${copies}) AS t(copy)`);
      await store.connection.run(`INSERT INTO srag_ingestion_log (table_name, source, content_hash, status, error, attempts, updated_at)
        SELECT 'hotels', "_source", "_content_hash", 'done', NULL, 1, current_timestamp FROM hotels WHERE "_source" LIKE 'synthetic/%'`);
      await store.connection.run('CHECKPOINT');
      growSeconds = seconds(performance.now() - growStarted);
      const schema = (await store.tableInfo('hotels')).schema;
      const statisticsStarted = performance.now();
      await store.refreshStatistics('hotels', schema);
      statisticsSeconds = seconds(performance.now() - statisticsStarted);

      log('the SQL stage in this process: sandbox against the same query run directly');
      const engine = new DuckDbSqlEngine(store.connection);
      for (const question of questions) {
        const sandboxTimes: number[] = [];
        const directTimes: number[] = [];
        let sameRows = true;
        for (let index = 0; index < repeats; index += 1) {
          let started = performance.now();
          const sandboxed = await engine.runReadOnlyQuery(question.sql, ['hotels']);
          sandboxTimes.push(performance.now() - started);
          started = performance.now();
          const direct = (await store.connection.runAndReadAll(question.sql)).getRowsJson();
          directTimes.push(performance.now() - started);
          sameRows &&= consistentRows(sandboxed.rows, direct, sandboxed.cut?.rowsOmitted === true);
        }
        const sandboxSeconds = seconds(median(sandboxTimes));
        const directSeconds = seconds(median(directTimes));
        sqlStage.push({ kind: question.kind, sandboxSeconds, directSeconds, ratio: Number((sandboxSeconds / Math.max(directSeconds, 0.001)).toFixed(1)), sameRows });
      }
    } finally {
      store.close();
    }
    const rows = copies * 50;

    log(`srag ask at ${rows} rows`);
    await runCliMeasured(askAll, workDirectory, environment);
    const askLarge = await repeated(`srag ask at ${rows} rows`, askAll, workDirectory, environment);
    const answersLarge = askLarge.stdout.trim().split('\n').map((line) => (JSON.parse(line) as { answer: string }).answer);

    log(`srag_ask in SQL at ${rows} rows`);
    const sqlAsk = await repeated('srag_ask in SQL', ['sql', '-c', `SELECT answer FROM srag_ask('${questions[0]!.question.replace(/'/g, "''")}')`, '--db', 'scale.duckdb', '--json'], workDirectory, environment);

    log(`srag ingest into the ${rows}-row table, nothing changed`);
    const unchanged = await runCliMeasured(ingestArgs, workDirectory, environment);
    if (unchanged.status !== 0) throw new Error(`ingest with nothing changed failed: ${unchanged.stderr}`);
    const changedFile = readdirSync(path.join(workDirectory, 'docs')).sort()[0]!;
    const changedPath = path.join(workDirectory, 'docs', changedFile);
    writeFileSync(changedPath, `${readFileSync(changedPath, 'utf8')}\n<p>Renovated this year.</p>\n`);
    log(`srag ingest into the ${rows}-row table, one document changed (${changedFile})`);
    const changed = await runCliMeasured(ingestArgs, workDirectory, environment);
    if (changed.status !== 0) throw new Error(`ingest of a changed document failed: ${changed.stderr}`);

    const results = {
      rows,
      repeats,
      machine: { cpus: os.cpus().length, loadAverage: os.loadavg().map((load) => Number(load.toFixed(1))) },
      growSeconds,
      statisticsSeconds,
      ask: {
        questions: questions.map((question) => question.kind),
        smallTable: { seconds: askSmall.seconds, peakRssMegabytes: askSmall.peakRssMegabytes },
        largeTable: { seconds: askLarge.seconds, peakRssMegabytes: askLarge.peakRssMegabytes, answers: answersLarge },
        addedSecondsPerQuestion: Number(((askLarge.seconds - askSmall.seconds) / questions.length).toFixed(3)),
      },
      sqlStage,
      sqlAsk: { seconds: sqlAsk.seconds, peakRssMegabytes: sqlAsk.peakRssMegabytes },
      ingest: {
        unchanged: { seconds: seconds(unchanged.milliseconds), peakRssMegabytes: megabytes(unchanged.peakRssKilobytes), summary: unchanged.stdout.trim() },
        oneChanged: { seconds: seconds(changed.milliseconds), peakRssMegabytes: megabytes(changed.peakRssKilobytes), summary: changed.stdout.trim() },
      },
    };
    mkdirSync(flags['output-dir']!, { recursive: true });
    const output = path.join(flags['output-dir']!, `scale-${rows}-rows-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(output, `${JSON.stringify(results, null, 2)}\n`);
    process.stdout.write(`${report(results)}\nfigures written to ${path.relative(process.cwd(), output)}\n`);
  } finally {
    await standIn.close();
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

function report(results: {
  rows: number; growSeconds: number; statisticsSeconds: number;
  ask: { questions: string[]; smallTable: { seconds: number; peakRssMegabytes: number }; largeTable: { seconds: number; peakRssMegabytes: number }; addedSecondsPerQuestion: number };
  sqlStage: Array<{ kind: string; sandboxSeconds: number; directSeconds: number; ratio: number; sameRows: boolean }>;
  sqlAsk: { seconds: number; peakRssMegabytes: number };
  ingest: { unchanged: { seconds: number; peakRssMegabytes: number; summary: string }; oneChanged: { seconds: number; peakRssMegabytes: number; summary: string } };
}): string {
  const rows = results.rows.toLocaleString('en-US');
  const lines = [
    `scale benchmark at ${rows} rows (goals: SQL stage ≤ 1 s, peak RSS ≤ 600 MB)`,
    `  growing the table: ${results.growSeconds} s; statistics over every row in DuckDB: ${results.statisticsSeconds} s`,
    `  srag ask, ${results.ask.questions.length} questions (${results.ask.questions.join(', ')}): ${results.ask.smallTable.seconds} s at 50 rows, ${results.ask.largeTable.seconds} s at ${rows} rows` +
      ` (+${results.ask.addedSecondsPerQuestion} s per question); peak RSS ${results.ask.smallTable.peakRssMegabytes} MB → ${results.ask.largeTable.peakRssMegabytes} MB`,
    '  SQL stage per query (median): sandbox vs the same query run directly on the database',
    ...results.sqlStage.map((stage) => `    ${stage.kind.padEnd(9)} ${stage.sandboxSeconds.toFixed(3)} s vs ${stage.directSeconds.toFixed(3)} s (×${stage.ratio})${stage.sameRows ? '' : '  ROWS DIFFER'}`),
    `  srag_ask in SQL (srag sql -c): ${results.sqlAsk.seconds} s, peak RSS ${results.sqlAsk.peakRssMegabytes} MB`,
    `  srag ingest, nothing changed: ${results.ingest.unchanged.seconds} s, peak RSS ${results.ingest.unchanged.peakRssMegabytes} MB — ${results.ingest.unchanged.summary}`,
    `  srag ingest, one document changed: ${results.ingest.oneChanged.seconds} s, peak RSS ${results.ingest.oneChanged.peakRssMegabytes} MB — ${results.ingest.oneChanged.summary}`,
  ];
  return lines.join('\n');
}

await run();
