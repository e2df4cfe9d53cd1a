/**
 * Throughput of `srag_extract` inside DuckDB: `npm run bench:udf [-- --documents N] [--latency-ms L] [--concurrency C] [--output-dir DIR]`
 *
 * Against the LLM stand-in (a loopback OpenAI-compatible server answering from gold data after a
 * fixed latency), over generated hotel pages, through the same path `srag sql` / `srag run` take
 * (DuckDB on a worker thread, the table function's callbacks blocking on the LLM bridge worker):
 * - rows/s of an uncached scan at latency L and concurrency C, as a ratio to the ideal N·L/C
 *   (what the model's latency alone costs when C requests are always in flight);
 * - the most requests the stand-in saw in flight at once (must be C);
 * - the per-row overhead of a fully cached scan in microseconds (every reply from the response
 *   cache: read, hash, prompt, cache lookup, validation, normalization, back to DuckDB), next to
 *   DuckDB's own `read_text` over the same files;
 * - startup: opening a session (DuckDB worker) and the bridge worker's first call, with tsx in the
 *   worker (what srag does) and with the worker bundled by esbuild instead (the alternative).
 * Prints a table and writes JSON to bench/results/. Timings are measurements of this machine.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { openSqlSession } from '../duckdb-udf/src/harness/sql-session.ts';
import { controlSlots, createControlBuffer } from '../duckdb-udf/src/llm-bridge/control-buffer.ts';
import { LlmBridge } from '../duckdb-udf/src/llm-bridge/llm-bridge.ts';
import { startLlmStandIn, type RecordedRequest } from '../tests/helpers/llm-stand-in/index.ts';
import { generateHotelCorpus } from './generate-hotel-corpus.ts';

const { values: flags } = parseArgs({
  options: {
    documents: { type: 'string', default: '480' },
    'latency-ms': { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '16' },
    'cached-repeats': { type: 'string', default: '3' },
    'output-dir': { type: 'string', default: fileURLToPath(new URL('./results/', import.meta.url)) },
  },
});
const documents = Number(flags.documents);
const latencyMs = Number(flags['latency-ms']);
const concurrency = Number(flags.concurrency);
const cachedRepeats = Number(flags['cached-repeats']);

const seconds = (milliseconds: number) => milliseconds / 1000;
const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;

function maximumInFlight(requests: RecordedRequest[]): number {
  const events = requests.flatMap((request) => [{ at: request.startedAt, change: 1 }, { at: request.finishedAt, change: -1 }])
    .sort((left, right) => left.at - right.at || left.change - right.change);
  let inFlight = 0;
  let maximum = 0;
  for (const event of events) maximum = Math.max(maximum, inFlight += event.change);
  return maximum;
}

/** The bridge worker's first answer with tsx registered in the worker (srag's way). */
function bridgeStartupWithTsx(): number {
  const bridge = new LlmBridge({ environment: {}, progress: false, onJournal: () => {} });
  const started = performance.now();
  bridge.callSync({ type: 'usage' });
  const elapsed = performance.now() - started;
  void bridge.close();
  return elapsed;
}

/** The same, with the worker bundled by esbuild first: bundling time and worker start. */
async function bridgeStartupWithEsbuild(directory: string): Promise<{ bundleMs: number; startMs: number }> {
  const started = performance.now();
  const output = path.join(fileURLToPath(new URL('../node_modules/.cache/', import.meta.url)), 'srag-bench-bridge-worker.mjs');
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../duckdb-udf/src/llm-bridge/bridge-worker.ts', import.meta.url))],
    bundle: true, platform: 'node', format: 'esm', target: 'node20', write: false, logLevel: 'silent',
    external: ['@duckdb/node-api', 'gpt-tokenizer', 'gpt-tokenizer/*'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  mkdirSync(path.dirname(output), { recursive: true });
  writeFileSync(output, result.outputFiles[0]!.text);
  const bundled = performance.now();
  const control = createControlBuffer();
  const channel = new MessageChannel();
  const worker = new Worker(output, { workerData: { control, syncPort: channel.port2, environment: {}, progress: false }, transferList: [channel.port2] });
  worker.postMessage({ id: 1, reply: 'sync', request: { type: 'usage' } });
  const view = new Int32Array(control);
  while (!receiveMessageOnPort(channel.port1)) Atomics.wait(view, controlSlots.reply, 0, 50);
  const elapsed = performance.now() - bundled;
  await worker.terminate();
  rmSync(output, { force: true });
  void directory;
  return { bundleMs: bundled - started, startMs: elapsed };
}

const directory = mkdtempSync(path.join(os.tmpdir(), 'srag-udf-bench-'));
try {
  generateHotelCorpus(directory, documents);
  const glob = path.join(directory, 'docs', '*');
  const schema = path.join(directory, 'schema.json');
  const standIn = await startLlmStandIn({ corpora: [directory], latencyMs });

  const tsxStartupMs = bridgeStartupWithTsx();
  const esbuildStartup = await bridgeStartupWithEsbuild(directory);

  const openedAt = performance.now();
  const session = await openSqlSession(path.join(directory, 'bench.duckdb'), {
    environment: { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-bench-not-a-real-key-0000', SRAG_CONCURRENCY: String(concurrency), SRAG_MAX_RETRIES: '0' },
    progress: false,
  });
  const sessionOpenMs = performance.now() - openedAt;
  // Warm-up: start the bridge worker and extract the first page, so the timed scan measures the scan.
  const warmUpAt = performance.now();
  const firstPage = (await session.run(`SELECT file FROM glob('${glob}') ORDER BY file LIMIT 1`)).rows[0]![0];
  await session.run(`SELECT count(*) FROM srag_extract('${firstPage}', schema := '${schema}')`);
  const firstCallMs = performance.now() - warmUpAt;

  const scan = `SELECT count(*), count(_error) FROM srag_extract('${glob}', schema := '${schema}', concurrency := ${concurrency})`;
  standIn.reset();
  const uncachedAt = performance.now();
  const uncached = await session.run(scan);
  const uncachedMs = performance.now() - uncachedAt;
  const requests = standIn.requests.length;
  const inFlight = maximumInFlight(standIn.requests);
  const busyMs = standIn.requests.reduce((sum, request) => sum + request.finishedAt - request.startedAt, 0);
  if (uncached.rows[0]![0] !== documents || uncached.rows[0]![1] !== 0) throw new Error(`bench: unexpected scan result ${JSON.stringify(uncached.rows)}`);
  const idealMs = (requests * latencyMs) / concurrency;

  standIn.reset();
  const cachedTimes: number[] = [];
  for (let repeat = 0; repeat < cachedRepeats; repeat += 1) {
    const at = performance.now();
    await session.run(scan);
    cachedTimes.push(performance.now() - at);
  }
  if (standIn.requests.length !== 0) throw new Error('bench: the cached scans made model calls');
  const readTextTimes: number[] = [];
  for (let repeat = 0; repeat < cachedRepeats; repeat += 1) {
    const at = performance.now();
    await session.run(`SELECT count(*), sum(length(content)) FROM read_text('${glob}')`);
    readTextTimes.push(performance.now() - at);
  }
  await session.close();
  await standIn.close();

  const cachedMs = median(cachedTimes);
  const readTextMs = median(readTextTimes);
  const figures = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg()[0] },
    documents,
    latencyMs,
    concurrency,
    uncached: {
      requests,
      seconds: seconds(uncachedMs),
      rowsPerSecond: requests / seconds(uncachedMs),
      idealSeconds: seconds(idealMs),
      idealRowsPerSecond: concurrency / seconds(latencyMs),
      ratioToIdeal: idealMs / uncachedMs,
      maximumInFlight: inFlight,
      /** Σ request durations at the stand-in ÷ scan time: how full the C slots were kept. */
      averageInFlight: busyMs / uncachedMs,
      meanRequestMs: busyMs / requests,
    },
    cached: {
      seconds: seconds(cachedMs),
      perRowMicroseconds: (cachedMs * 1000) / documents,
      readTextPerRowMicroseconds: (readTextMs * 1000) / documents,
    },
    startup: {
      sessionOpenMs,
      firstSragCallMs: firstCallMs,
      bridgeWorkerWithTsxMs: tsxStartupMs,
      bridgeWorkerWithEsbuildBundleMs: esbuildStartup.bundleMs,
      bridgeWorkerWithEsbuildStartMs: esbuildStartup.startMs,
    },
  };

  const rows: Array<[string, string]> = [
    ['documents · latency · concurrency', `${documents} · ${latencyMs} ms · ${concurrency}`],
    ['uncached scan', `${figures.uncached.seconds.toFixed(2)} s for ${requests} calls = ${figures.uncached.rowsPerSecond.toFixed(1)} rows/s`],
    ['ideal N·L/C', `${figures.uncached.idealSeconds.toFixed(2)} s = ${figures.uncached.idealRowsPerSecond.toFixed(1)} rows/s`],
    ['ratio to ideal', figures.uncached.ratioToIdeal.toFixed(3)],
    ['requests in flight: most · on average', `${inFlight} · ${figures.uncached.averageInFlight.toFixed(1)} (mean request ${figures.uncached.meanRequestMs.toFixed(0)} ms at the stand-in)`],
    ['cached scan (median of ' + cachedRepeats + ')', `${figures.cached.seconds.toFixed(3)} s = ${figures.cached.perRowMicroseconds.toFixed(0)} µs/row`],
    ['read_text over the same files', `${figures.cached.readTextPerRowMicroseconds.toFixed(1)} µs/row`],
    ['session open (DuckDB worker)', `${sessionOpenMs.toFixed(0)} ms`],
    ['first srag call (bridge start + 1 call)', `${firstCallMs.toFixed(0)} ms`],
    ['bridge worker start, tsx in the worker', `${tsxStartupMs.toFixed(0)} ms`],
    ['bridge worker start, esbuild bundle', `${esbuildStartup.bundleMs.toFixed(0)} ms bundling + ${esbuildStartup.startMs.toFixed(0)} ms start`],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  process.stdout.write(`srag_extract throughput (${os.cpus().length} CPUs, Node ${process.version})\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n')}\n`);
  mkdirSync(flags['output-dir']!, { recursive: true });
  const output = path.join(flags['output-dir']!, `srag-extract-throughput-${figures.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(output, `${JSON.stringify(figures, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), output)}\n`);
} finally {
  rmSync(directory, { recursive: true, force: true });
}
