/**
 * `srag_extract` at scale: `npm run bench:udf-scale [-- --documents N] [--concurrency C] [--output-dir DIR]`
 *
 * Generates N hotel pages (default 100,000) and runs, through the real CLI (`srag sql -c`, a child
 * process, so that its time, CPU and peak memory are srag's alone), against the LLM stand-in serving
 * from this process without latency:
 * 1. `SELECT count(*), count(_error) FROM srag_extract('docs/*', schema := …, concurrency := C)`:
 *    every page extracted (short pages share calls, as by default); wall time, CPU, peak RSS, and
 *    the model calls `srag_usage()` counts in the same session;
 * 2. the same statement again, every page unchanged: no call, each row from its record;
 * 3. `CREATE TABLE hotels AS SELECT * FROM srag_extract(…)` (unchanged again), then the row and
 *    evidence counts it left;
 * 4. what the N documents cost a statement that does not scan them: `SELECT 1` on the database,
 *    against the same on an empty one (what srag's start costs), and an unchanged scan of 10 pages.
 * With no latency the scan is bound by CPU: srag's own per document, and the stand-in's on the same
 * cores. Prints a table and writes JSON to bench/results/. Timings are measurements of this machine.
 * At a million pages the stand-in in this process holds every page's gold: run it as
 * `node --max-old-space-size=12000 --import tsx bench/srag-extract-scale.ts --documents 1000000`.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { generateHotelCorpus } from './generate-hotel-corpus.ts';
import { runCliMeasured } from './run-cli-measured.ts';

const { values: flags } = parseArgs({
  options: {
    documents: { type: 'string', default: '100000' },
    concurrency: { type: 'string', default: '64' },
    'output-dir': { type: 'string', default: fileURLToPath(new URL('./results/', import.meta.url)) },
  },
});
const documents = Number(flags.documents);
const concurrency = Number(flags.concurrency);
if (!Number.isInteger(documents) || documents < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write('bench: --documents and --concurrency must be whole numbers ≥ 1\n');
  process.exit(2);
}

interface Step {
  seconds: number;
  cpuSeconds: number;
  /** srag's own peak (VmHWM on Linux: see bench/report-peak-memory.cjs). */
  peakRssMegabytes: number;
  /** getrusage's figure, which counts this benchmark's own memory at the spawn too (a million pages' gold: more than srag's). */
  rusagePeakRssMegabytes: number;
  /** Each result's rows, in order. */
  results: unknown[][][];
}

/** `srag sql --json -c SQL` in `cwd`: each result's rows, wall and CPU time, and peak RSS. */
async function srag(sql: string, cwd: string, environment: Record<string, string>): Promise<Step> {
  const run = await runCliMeasured(['sql', '--db', 'scale.duckdb', '--json', '-c', sql], cwd, environment);
  if (run.status !== 0) throw new Error(`bench: srag sql failed (${run.status}): ${run.stderr.trim()}`);
  return {
    seconds: run.milliseconds / 1000,
    cpuSeconds: run.cpuMicroseconds / 1e6,
    peakRssMegabytes: run.peakRssKilobytes / 1024,
    rusagePeakRssMegabytes: run.rusagePeakRssKilobytes / 1024,
    results: run.stdout.trim().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { rows: unknown[][] }).rows),
  };
}

const log = (line: string) => process.stderr.write(`${line}\n`);
const directory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-udf-scale-'));
try {
  const at = performance.now();
  generateHotelCorpus(directory, documents);
  log(`generated ${documents.toLocaleString('en-US')} pages in ${((performance.now() - at) / 1000).toFixed(1)} s`);
  const standIn = await startLlmStandIn({ corpora: [directory], recordBodies: false });
  const environment = { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-bench-not-a-real-key-0000' };
  const scan = `srag_extract('docs/*', schema := 'schema.json', concurrency := ${concurrency})`;
  try {
    log('extracting every page');
    const counted = `SELECT count(*), count(_error) FROM ${scan}; SELECT coalesce(sum(calls), 0) FROM srag_usage()`;
    const uncached = await srag(counted, directory, environment);
    log('scanning again, every page unchanged');
    const cached = await srag(counted, directory, environment);
    for (const step of [uncached, cached]) {
      const [rows, errors] = step.results[0]![0]!.map(Number);
      if (rows !== documents || errors !== 0) throw new Error(`bench: the scan gave ${rows} rows and ${errors} errors for ${documents} pages`);
    }
    const calls = Number(uncached.results[1]![0]![0]);
    if (Number(cached.results[1]![0]![0]) !== 0) throw new Error('bench: the unchanged scan made model calls');
    log('copying the rows into a table');
    const copied = await srag(`CREATE TABLE hotels AS SELECT * FROM ${scan}; SELECT (SELECT count(*) FROM hotels), (SELECT count(*) FROM srag_evidence)`, directory, environment);
    const [tableRows, evidenceRows] = copied.results.at(-1)![0]!.map(Number) as [number, number];
    if (tableRows !== documents) throw new Error(`bench: the table holds ${tableRows} rows, not ${documents}`);
    log('statements that do not scan every page');
    const selectOne = await srag('SELECT 1', directory, environment);
    const emptyDirectory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-udf-scale-empty-'));
    const emptySelectOne = await srag('SELECT 1', emptyDirectory, environment).finally(() => rmSync(emptyDirectory, { recursive: true, force: true }));
    const tenPages = readdirSync(path.join(directory, 'docs')).sort().slice(0, 10).map((name) => `'docs/${name}'`);
    const few = await srag(`SELECT count(*), count(_error) FROM srag_extract([${tenPages.join(', ')}], schema := 'schema.json'); SELECT coalesce(sum(calls), 0) FROM srag_usage()`, directory, environment);
    if (Number(few.results[0]![0]![0]) !== tenPages.length || Number(few.results[1]![0]![0]) !== 0) throw new Error(`bench: the scan of ${tenPages.length} unchanged pages gave ${JSON.stringify(few.results)}`);

    const figures = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg()[0] },
      documents,
      concurrency,
      uncached: { seconds: uncached.seconds, cpuSeconds: uncached.cpuSeconds, peakRssMegabytes: uncached.peakRssMegabytes, rusagePeakRssMegabytes: uncached.rusagePeakRssMegabytes, calls, millisecondsPerDocument: (uncached.seconds * 1000) / documents },
      unchanged: { seconds: cached.seconds, cpuSeconds: cached.cpuSeconds, peakRssMegabytes: cached.peakRssMegabytes, rusagePeakRssMegabytes: cached.rusagePeakRssMegabytes, microsecondsPerRow: (cached.seconds * 1e6) / documents },
      copy: { seconds: copied.seconds, peakRssMegabytes: copied.peakRssMegabytes, rusagePeakRssMegabytes: copied.rusagePeakRssMegabytes, tableRows, evidenceRows },
      selectOne: { seconds: selectOne.seconds, peakRssMegabytes: selectOne.peakRssMegabytes, onEmptyDatabaseSeconds: emptySelectOne.seconds, onEmptyDatabasePeakRssMegabytes: emptySelectOne.peakRssMegabytes },
      tenPagesUnchanged: { seconds: few.seconds, peakRssMegabytes: few.peakRssMegabytes },
    };
    const rows: Array<[string, string]> = [
      ['documents · concurrency · latency', `${documents.toLocaleString('en-US')} · ${concurrency} · 0 ms`],
      ['every page extracted', `${uncached.seconds.toFixed(1)} s (${figures.uncached.millisecondsPerDocument.toFixed(2)} ms/page), ${calls.toLocaleString('en-US')} calls, CPU ${uncached.cpuSeconds.toFixed(1)} s, peak RSS ${uncached.peakRssMegabytes.toFixed(0)} MB`],
      ['every page unchanged', `${cached.seconds.toFixed(1)} s (${figures.unchanged.microsecondsPerRow.toFixed(0)} µs/row, process start included), peak RSS ${cached.peakRssMegabytes.toFixed(0)} MB`],
      ['CREATE TABLE … AS (unchanged)', `${copied.seconds.toFixed(1)} s, peak RSS ${copied.peakRssMegabytes.toFixed(0)} MB: ${tableRows.toLocaleString('en-US')} rows, ${evidenceRows.toLocaleString('en-US')} evidence rows`],
      ['SELECT 1 on this database', `${selectOne.seconds.toFixed(2)} s, peak RSS ${selectOne.peakRssMegabytes.toFixed(0)} MB (on an empty one: ${emptySelectOne.seconds.toFixed(2)} s, ${emptySelectOne.peakRssMegabytes.toFixed(0)} MB)`],
      ['10 of its pages, unchanged', `${few.seconds.toFixed(2)} s, peak RSS ${few.peakRssMegabytes.toFixed(0)} MB`],
    ];
    const width = rows.reduce((widest, [label]) => Math.max(widest, label.length), 0);
    process.stdout.write(`srag_extract at scale (${os.cpus().length} CPUs, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)})\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n')}\n`);
    mkdirSync(flags['output-dir']!, { recursive: true });
    const output = path.join(flags['output-dir']!, `srag-extract-scale-${documents}-${figures.date.replace(/[:.]/g, '-')}.json`);
    writeFileSync(output, `${JSON.stringify(figures, null, 2)}\n`);
    process.stdout.write(`wrote ${path.relative(process.cwd(), output)}\n`);
  } finally {
    await standIn.close();
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
