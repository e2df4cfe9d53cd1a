/**
 * Long-reply benchmark: `npm run bench:replies [-- --documents N]`
 *
 * A model that writes without end (the stand-in's `endless_reply` fault: the first quote of the
 * reply runs on to 50 MB) answers the first request of each of N hotel pages (3 by default, as in
 * issue 42: 43 s, 1.8 GB and a 230 MB database). `srag ingest --batch-size 1` runs in a child
 * process three times: with no fault, with the fault and the reply bound (SRAG_MAX_REPLY_BYTES,
 * default 8 MiB), and with the fault and the bound lifted to 1 GiB. Prints each run's wall time,
 * peak RSS (getrusage, all threads), CPU, database size and summary line. Timings are this
 * machine's; the three runs are in one process, so their ratios compare.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { runCliMeasured } from './run-cli-measured.ts';

const { values: flags } = parseArgs({ options: { documents: { type: 'string', default: '3' } } });
const count = Number(flags.documents);
const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));
const corpus = path.join(repositoryRoot, 'examples/hotels');
const directory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-replies-'));
const standIn = await startLlmStandIn({ corpora: [corpus] });
try {
  const documents = path.join(directory, 'docs');
  mkdirSync(documents);
  for (const name of readdirSync(path.join(corpus, 'docs')).sort().slice(0, count)) copyFileSync(path.join(corpus, 'docs', name), path.join(documents, name));
  const runs: Array<[string, number, Record<string, string>]> = [
    ['no fault', 0, {}],
    ['50 MB replies, bound 8 MiB (default)', count, {}],
    ['50 MB replies, bound lifted to 1 GiB', count, { SRAG_MAX_REPLY_BYTES: String(1024 * 1024 * 1024) }],
  ];
  process.stdout.write(`srag ingest of ${count} hotel pages, one request each (--batch-size 1), against the LLM stand-in:\n`);
  for (const [name, faults, settings] of runs) {
    standIn.reset();
    if (faults) standIn.failNext('endless_reply', faults);
    const database = path.join(directory, `${name.replace(/\W+/g, '-')}.duckdb`);
    const run = await runCliMeasured(
      ['ingest', documents, '--schema', path.join(corpus, 'schema.json'), '--db', database, '--batch-size', '1', '--table', 'hotels'],
      directory, { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'bench-not-a-key', ...settings },
    );
    const summary = run.stdout.split('\n').find((line) => line.startsWith('hotels:')) ?? `(no summary; exit ${run.status}) ${run.stderr.split('\n')[0]}`;
    process.stdout.write(`  ${name.padEnd(38)} ${(run.milliseconds / 1000).toFixed(1).padStart(5)} s, peak RSS ${Math.round(run.peakRssKilobytes / 1024)} MB, CPU ${(run.cpuMicroseconds / 1e6).toFixed(1)} s, database ${(statSync(database).size / 1024 / 1024).toFixed(1)} MB\n`);
    process.stdout.write(`  ${''.padEnd(38)} ${summary.replace(/ \(\/.*\)$/, '')}\n`);
    const failed = run.stderr.split('\n').find((line) => line.startsWith('failed:'));
    if (failed) process.stdout.write(`  ${''.padEnd(38)} ${failed}\n`);
  }
} finally {
  await standIn.close();
  rmSync(directory, { recursive: true, force: true });
}
