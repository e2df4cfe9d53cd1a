/**
 * Throughput of `srag_extract` inside DuckDB: `npm run bench:udf [-- --documents N] [--rounds R] [--latency-ms L] [--concurrency 16,64] [--batch-size 1] [--output-dir DIR]`
 *
 * Against the LLM stand-in (a loopback OpenAI-compatible server answering from gold data after a
 * fixed latency), over generated hotel pages, through the same path `srag sql` / `srag run` take
 * (DuckDB on a worker thread, the table function's callbacks blocking on the LLM bridge worker).
 * All figures come from one run, as ratios where there is an ideal or a baseline:
 * - per concurrency C, two uncached scans: a short one over the N pages (at concurrency 64, 512
 *   pages are eight rounds of calls, so the one-time costs of a scan weigh: the first round leaving
 *   while nothing is compiled yet and 64 connections open), and a long one over R·C + 1 pages of
 *   its own (R·C calls after a warm-up page: R rounds, 64 by default; `--rounds 0` skips it),
 *   where what a scan costs per round shows;
 * - per uncached scan: rows/s at latency L, as a ratio to the ideal N·L/C
 *   (what the model's latency alone costs when C requests are always in flight), how long after
 *   its answer srag's own tables held all it wrote (the session applies the journal's last entries
 *   after the answer, and the next statement waits for that), and the most
 *   requests the stand-in saw in flight at once (must be C), and the same ratio for the stand-in's
 *   own ceiling: the scan's very requests replayed at concurrency C by a bare keep-alive HTTP
 *   client (no srag in the way), since the stand-in shares this machine's cores and parses, matches
 *   and answers each request itself — what srag adds is the difference; and where the time above
 *   the ideal went (`slotRefills`): when the first call arrived, and how long slots stayed empty
 *   between a reply and the call that took its slot, after the first round and later; and what the
 *   scan and the replay cost the machine (`cpu`, see `cpuOver`: the process's CPU as a share of the
 *   cores, and on Linux how long its threads waited for one). The scans pass `batch_size := 1`
 *   (one document per call, N calls) unless told otherwise: with short documents batched by
 *   default, 512 pages make ~60 calls, too few rounds at concurrency 64 to measure how full the
 *   slots are kept;
 * - the per-row cost of a fully cached scan (every document unchanged: read, hash, look up its
 *   record, back to DuckDB) above DuckDB's own `read_text` over the same files, median of
 *   `--cached-repeats` each: over the N pages, in the last short scan's session, and over each long
 *   scan's pages in its session (where what a statement costs once, and the first repeats' code
 *   that V8 has not compiled yet, weigh less per row);
 * - startup: the bridge worker's first answer from its bundle (what srag starts) and through tsx
 *   (the fallback), checking the bundle cache, and opening a session (DuckDB worker).
 * Prints a table and writes JSON to bench/results/. Timings are measurements of this machine.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import { openSqlSession, type SqlSession } from '../node/sql-functions/harness/sql-session.ts';
import { controlSlots, createControlBuffer } from '../node/sql-functions/llm-bridge/control-buffer.ts';
import { bridgeWorkerUrl } from '../node/sql-functions/llm-bridge/llm-bridge.ts';
import { prepareWorkerBundle, readyWorkerBundle } from '../node/runtime/workers/worker-bundle.ts';
import { startLlmStandIn, type LlmStandIn, type RecordedRequest } from '../tests/helpers/llm-stand-in/index.ts';
import { generateHotelCorpus } from './generate-hotel-corpus.ts';

const { values: flags } = parseArgs({
  options: {
    documents: { type: 'string', default: '512' },
    rounds: { type: 'string', default: '64' },
    'latency-ms': { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '16,64' },
    'cached-repeats': { type: 'string', default: '5' },
    'batch-size': { type: 'string', default: '1' },
    'output-dir': { type: 'string', default: fileURLToPath(new URL('./results/', import.meta.url)) },
  },
});
const documents = Number(flags.documents);
const rounds = Number(flags.rounds);
if (!Number.isInteger(rounds) || rounds < 0) {
  process.stderr.write('bench: --rounds must be a whole number (0 skips the long scans)\n');
  process.exit(2);
}
const latencyMs = Number(flags['latency-ms']);
const concurrencies = flags.concurrency!.split(',').map(Number);
const cachedRepeats = Number(flags['cached-repeats']);
const batchSize = Number(flags['batch-size']);

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

/**
 * The CPU this process (all its threads: the stand-in, DuckDB's, the bridge, V8's compilers and
 * collectors) has used, and, on Linux, how long its threads have waited for a core while ready to
 * run, by thread (the second field of each thread's `/proc/self/task/<tid>/schedstat`; null
 * elsewhere). Milliseconds, to be taken as differences over a window.
 */
function cpuClock(): { usedMs: number; waitedMs: Map<string, number> | null } {
  const usage = process.cpuUsage();
  let waitedMs: Map<string, number> | null = new Map();
  try {
    for (const thread of readdirSync('/proc/self/task')) {
      try {
        waitedMs.set(thread, Number(readFileSync(`/proc/self/task/${thread}/schedstat`, 'utf8').split(' ')[1]) / 1e6);
      } catch {
        // A thread that ended between the listing and the read.
      }
    }
  } catch {
    waitedMs = null;
  }
  return { usedMs: (usage.user + usage.system) / 1000, waitedMs };
}

/**
 * What a window cost the machine: the CPU the process used as a share of what the cores could give
 * in that time, and the time its threads spent ready but waiting for a core (Linux). A share near
 * 1, or a wait of the order of the window, means the scan's pace was set by the cores this machine
 * shares between srag and the stand-in, not by the model's latency.
 */
function cpuOver(start: ReturnType<typeof cpuClock>, wallMs: number) {
  const end = cpuClock();
  const usedMs = end.usedMs - start.usedMs;
  return {
    cpuSeconds: seconds(usedMs),
    cpuShareOfCores: usedMs / (wallMs * os.cpus().length),
    // Thread by thread: one started in the window counts from zero, one that ended in it drops out
    // (its wait is lost, rather than subtracting its whole life from the sum).
    waitedForCoreSeconds: end.waitedMs === null || start.waitedMs === null
      ? null
      : seconds([...end.waitedMs].reduce((sum, [thread, waited]) => sum + waited - (start.waitedMs!.get(thread) ?? 0), 0)),
  };
}

const describeCpu = (cpu: ReturnType<typeof cpuOver>) =>
  `${cpu.cpuSeconds.toFixed(2)} s = ${(cpu.cpuShareOfCores * 100).toFixed(0)}% of ${os.cpus().length} cores${cpu.waitedForCoreSeconds === null ? '' : `; its threads waited ${cpu.waitedForCoreSeconds.toFixed(2)} s for a core (summed over threads)`}`;

const quantile = (sorted: number[], fraction: number) => sorted[Math.floor(fraction * (sorted.length - 1))] ?? 0;

/**
 * Where a scan's time above N·L/C goes, from the stand-in's clock: how long after the scan started
 * its first call arrived, and how long a slot stayed empty — from the stand-in's writing a reply to
 * its receiving the call that took the freed slot (the k-th reply frees the slot of the (k+C)-th
 * call). The first round's replies arrive together, so their slots are refilled one after another;
 * later replies arrive spread out. Milliseconds.
 */
function slotRefills(requests: RecordedRequest[], concurrency: number, scanStartedAt: number) {
  const starts = requests.map((request) => request.startedAt).sort((left, right) => left - right);
  const finishes = requests.map((request) => request.finishedAt).sort((left, right) => left - right);
  const gaps = starts.slice(concurrency).map((start, index) => start - finishes[index]!);
  const firstRound = gaps.slice(0, concurrency).sort((left, right) => left - right);
  const later = gaps.slice(concurrency).sort((left, right) => left - right);
  return {
    firstCallMs: (starts[0] ?? scanStartedAt) - scanStartedAt,
    firstRoundRefillMedianMs: quantile(firstRound, 0.5),
    firstRoundRefillLastMs: quantile(firstRound, 1),
    laterRefillMedianMs: quantile(later, 0.5),
    laterRefillP90Ms: quantile(later, 0.9),
  };
}

/**
 * Replays request bodies to the stand-in's chat endpoint, `concurrency` at a time, with a bare
 * keep-alive client that only reads each reply: the ceiling the stand-in itself sets. Milliseconds.
 */
async function replayMs(baseUrl: string, bodies: string[], concurrency: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const url = new URL(`${baseUrl}/chat/completions`);
  const post = (body: string) => new Promise<void>((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => (response.statusCode === 200 ? resolve() : reject(new Error(`bench: the replay got ${response.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`))));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
  const started = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < bodies.length) await post(bodies[next++]!);
  }));
  const elapsed = performance.now() - started;
  agent.destroy();
  return elapsed;
}

/** The bridge worker's first answer, started as `startWorker` would with `module` (a bundle, or the TypeScript through tsx). */
async function bridgeFirstAnswerMs(module: URL, registerTypeScript: boolean): Promise<number> {
  const control = createControlBuffer();
  const channel = new MessageChannel();
  const started = performance.now();
  const worker = new Worker(new URL('../node/runtime/workers/worker-entry.mjs', import.meta.url), {
    workerData: { control, syncPort: channel.port2, environment: {}, progress: false, module: module.href, registerTypeScript },
    transferList: [channel.port2],
  });
  worker.postMessage({ type: 'request', id: 1, request: { type: 'usage' } });
  const view = new Int32Array(control);
  while (!receiveMessageOnPort(channel.port1)) Atomics.wait(view, controlSlots.reply, 0, 5);
  const elapsed = performance.now() - started;
  await worker.terminate();
  return elapsed;
}

/**
 * One uncached scan of `pages` documents at `concurrency` (see the header), then its requests
 * replayed bare: the figures of one row group of the table, what the two cost the machine included.
 */
async function uncachedScan({ session, standIn, schema, glob, pages, concurrency }: {
  session: SqlSession;
  standIn: LlmStandIn;
  schema: string;
  glob: string;
  pages: number;
  concurrency: number;
}) {
  standIn.reset();
  const scanCpu = cpuClock();
  const scanAt = performance.now();
  const scanStartedAt = Date.now();
  const result = await session.run(`SELECT count(*), count(_error) FROM srag_extract('${glob}', schema := '${schema}', concurrency := ${concurrency}, batch_size := ${batchSize})`);
  const scanMs = performance.now() - scanAt;
  const cpu = cpuOver(scanCpu, scanMs);
  // The session applies what the scan journaled after its answer; the next statement waits for that.
  await session.run('SELECT 1');
  const settledMs = performance.now() - scanAt;
  if (result.rows[0]![0] !== pages || result.rows[0]![1] !== 0) throw new Error(`bench: unexpected scan result ${JSON.stringify(result.rows)}`);
  const requests = standIn.requests.length;
  const busyMs = standIn.requests.reduce((sum, request) => sum + request.finishedAt - request.startedAt, 0);
  const idealMs = (requests * latencyMs) / concurrency;
  const refills = slotRefills(standIn.requests, concurrency, scanStartedAt);
  const bodies = standIn.requests.map((request) => JSON.stringify(request.body));
  standIn.reset();
  const replayCpu = cpuClock();
  const replay = await replayMs(standIn.url, bodies, concurrency);
  const replayCost = cpuOver(replayCpu, replay);
  if (standIn.requests.length !== requests) throw new Error(`bench: the replay made ${standIn.requests.length} requests, not ${requests}`);
  return {
    concurrency,
    documents: pages,
    requests,
    /** Calls per slot: how many times the scan's one-time costs are spread over. */
    rounds: requests / concurrency,
    seconds: seconds(scanMs),
    rowsPerSecond: requests / seconds(scanMs),
    idealSeconds: seconds(idealMs),
    ratioToIdeal: idealMs / scanMs,
    /** Until a statement after the scan could run: the scan, then the apply of its last journal entries to srag's tables. */
    settledSeconds: seconds(settledMs),
    maximumInFlight: maximumInFlight(standIn.requests),
    /** Σ request durations at the stand-in ÷ scan time: how full the C slots were kept. */
    averageInFlight: busyMs / scanMs,
    meanRequestMs: busyMs / requests,
    /** The same requests replayed by a bare client at concurrency C (see `replayMs`): the stand-in's ceiling. */
    replaySeconds: seconds(replay),
    replayRatioToIdeal: idealMs / replay,
    /** What srag's scan took above the bare replay of its requests. */
    aboveReplayMs: scanMs - replay,
    /** Where the time above the ideal went (see `slotRefills`). */
    ...refills,
    /** The process's CPU during the scan and during the bare replay (see `cpuOver`). */
    cpu: { scan: cpu, replay: replayCost },
  };
}

const directory = mkdtempSync(path.join(os.tmpdir(), 'srag-udf-bench-'));
const sessions: SqlSession[] = [];
try {
  generateHotelCorpus(directory, documents);
  const glob = path.join(directory, 'docs', '*');
  const schema = path.join(directory, 'schema.json');
  const standIn = await startLlmStandIn({ corpora: [directory], latencyMs });

  await prepareWorkerBundle(bridgeWorkerUrl);
  const checkedAt = performance.now();
  const bundle = readyWorkerBundle(bridgeWorkerUrl);
  const bundleCheckMs = performance.now() - checkedAt;
  if (!bundle) throw new Error('bench: no bundle of the bridge worker could be built');
  const bundleStartMs = median([await bridgeFirstAnswerMs(bundle, false), await bridgeFirstAnswerMs(bundle, false), await bridgeFirstAnswerMs(bundle, false)]);
  const tsxStartMs = median([await bridgeFirstAnswerMs(bridgeWorkerUrl, true), await bridgeFirstAnswerMs(bridgeWorkerUrl, true), await bridgeFirstAnswerMs(bridgeWorkerUrl, true)]);

  const uncached: Array<Awaited<ReturnType<typeof uncachedScan>>> = [];
  let session: SqlSession | undefined;
  let sessionOpenMs = 0;
  /** A session whose model is `url`, its bridge worker started and the first of `glob`'s pages extracted, so that a timed scan measures the scan. */
  const openWarmSession = async (file: string, url: string, concurrency: number, pagesGlob: string) => {
    const openedAt = performance.now();
    const opened = await openSqlSession(path.join(directory, file), {
      environment: { OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-bench-not-a-real-key-0000', SRAG_CONCURRENCY: String(concurrency), SRAG_MAX_RETRIES: '3' },
      progress: false,
    });
    sessions.push(opened);
    sessionOpenMs ||= performance.now() - openedAt;
    const firstPage = (await opened.run(`SELECT file FROM glob('${pagesGlob}') ORDER BY file LIMIT 1`)).rows[0]![0];
    await opened.run(`SELECT count(*) FROM srag_extract('${firstPage}', schema := '${schema}')`);
    // The warm-up's own journal is applied after its answer: the next statement waits for that, so it is waited for here.
    await opened.run('SELECT 1');
    return opened;
  };
  for (const concurrency of concurrencies) {
    session = await openWarmSession(`bench-${concurrency}.duckdb`, standIn.url, concurrency, glob);
    uncached.push(await uncachedScan({ session, standIn, schema, glob, pages: documents, concurrency }));
  }

  /**
   * Scans `pages` documents that are all unchanged in `session`'s database (read, hash, look up,
   * back to DuckDB) and read_text over the same files, in turn: the medians of `cachedRepeats`.
   */
  const cachedScan = async (scanned: SqlSession, model: LlmStandIn, pagesGlob: string, pages: number) => {
    const scan = `SELECT count(*), count(_error) FROM srag_extract('${pagesGlob}', schema := '${schema}')`;
    model.reset();
    const cachedTimes: number[] = [];
    const readTextTimes: number[] = [];
    for (let repeat = 0; repeat < cachedRepeats; repeat += 1) {
      let at = performance.now();
      await scanned.run(scan);
      cachedTimes.push(performance.now() - at);
      at = performance.now();
      await scanned.run(`SELECT count(*), sum(length(content)) FROM read_text('${pagesGlob}')`);
      readTextTimes.push(performance.now() - at);
    }
    if (model.requests.length !== 0) throw new Error('bench: the cached scans made model calls');
    const cachedMs = median(cachedTimes);
    const readTextMs = median(readTextTimes);
    return {
      documents: pages,
      seconds: seconds(cachedMs),
      perRowMicroseconds: (cachedMs * 1000) / pages,
      readTextPerRowMicroseconds: (readTextMs * 1000) / pages,
      aboveReadTextPerRowMicroseconds: ((cachedMs - readTextMs) * 1000) / pages,
    };
  };
  // Every page is now unchanged in the last session's database.
  const cached = [await cachedScan(session!, standIn, glob, documents)];
  await standIn.close();

  // The long scans come after the cached ones, which their pages would otherwise slow (thousands of
  // files being written out, a larger heap). Each has pages of its own (R·C calls after the warm-up's
  // first page), and a session and a stand-in of its own: as cold as the short scan's, and the
  // stand-in (whose cost per request grows with the gold it matches against) holding only its pages.
  for (const concurrency of rounds > 0 ? concurrencies : []) {
    const longDirectory = path.join(directory, `rounds-${concurrency}`);
    const pages = rounds * concurrency + 1;
    generateHotelCorpus(longDirectory, pages, 1_000 + concurrency);
    const long = { directory: longDirectory, glob: path.join(longDirectory, 'docs', '*'), pages };
    const longStandIn = await startLlmStandIn({ corpora: [long.directory], latencyMs });
    try {
      const longSession = await openWarmSession(`bench-${concurrency}-rounds.duckdb`, longStandIn.url, concurrency, long.glob);
      uncached.push(await uncachedScan({ session: longSession, standIn: longStandIn, schema, glob: long.glob, pages: long.pages, concurrency }));
      cached.push(await cachedScan(longSession, longStandIn, long.glob, long.pages));
      await longSession.close();
      sessions.splice(sessions.indexOf(longSession), 1);
    } finally {
      await longStandIn.close();
    }
  }

  const figures = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg()[0] },
    documents,
    rounds,
    latencyMs,
    batchSize,
    uncached,
    /** The N pages' cached scan first, then one per long scan's pages. */
    cached,
    startup: { bridgeWorkerFromBundleMs: bundleStartMs, bridgeWorkerThroughTsxMs: tsxStartMs, bundleCacheCheckMs: bundleCheckMs, sessionOpenMs },
  };

  const rows: Array<[string, string]> = [
    ['documents · latency · batch size', `${documents} · ${latencyMs} ms · ${batchSize}`],
    ...uncached.flatMap((run): Array<[string, string]> => [
      [`uncached scan at concurrency ${run.concurrency}, ${run.documents} pages`, `${run.seconds.toFixed(2)} s for ${run.requests} calls (${run.rounds.toFixed(0)} rounds) = ${run.rowsPerSecond.toFixed(1)} rows/s (ideal ${run.idealSeconds.toFixed(2)} s)`],
      ['  ratio to ideal N·L/C', run.ratioToIdeal.toFixed(3)],
      ['  srag\'s tables hold every write (the next statement ran)', `${run.settledSeconds.toFixed(2)} s, ${((run.settledSeconds - run.seconds) * 1000).toFixed(0)} ms after the answer`],
      ['  the stand-in\'s ceiling: its requests replayed bare', `${run.replaySeconds.toFixed(2)} s = ratio ${run.replayRatioToIdeal.toFixed(3)}; srag's scan took ${run.aboveReplayMs.toFixed(0)} ms more`],
      ['  first call · a slot empty after the first round · later', `+${run.firstCallMs} ms · median ${run.firstRoundRefillMedianMs}, last ${run.firstRoundRefillLastMs} ms · median ${run.laterRefillMedianMs}, p90 ${run.laterRefillP90Ms} ms`],
      ['  requests in flight: most · on average', `${run.maximumInFlight} · ${run.averageInFlight.toFixed(1)} (mean request ${run.meanRequestMs.toFixed(0)} ms at the stand-in)`],
      ['  CPU of this process during the scan', describeCpu(run.cpu.scan)],
      ['  CPU during the bare replay', describeCpu(run.cpu.replay)],
    ]),
    ...cached.flatMap((run): Array<[string, string]> => [
      [`cached scan, ${run.documents} pages (median of ${cachedRepeats})`, `${run.seconds.toFixed(3)} s = ${run.perRowMicroseconds.toFixed(0)} µs/row`],
      ['  read_text over the same files', `${run.readTextPerRowMicroseconds.toFixed(1)} µs/row`],
      ['  cached scan above read_text', `${run.aboveReadTextPerRowMicroseconds.toFixed(0)} µs/row`],
    ]),
    ['bridge worker start, bundle (median of 3)', `${bundleStartMs.toFixed(0)} ms (bundle cache check ${bundleCheckMs.toFixed(1)} ms)`],
    ['bridge worker start, tsx (median of 3)', `${tsxStartMs.toFixed(0)} ms`],
    ['session open (DuckDB worker)', `${sessionOpenMs.toFixed(0)} ms`],
  ];
  const width = rows.reduce((widest, [label]) => Math.max(widest, label.length), 0);
  process.stdout.write(`srag_extract throughput (${os.cpus().length} CPUs, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)})\n${rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`).join('\n')}\n`);
  mkdirSync(flags['output-dir']!, { recursive: true });
  const output = path.join(flags['output-dir']!, `srag-extract-throughput-${figures.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(output, `${JSON.stringify(figures, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), output)}\n`);
} finally {
  await Promise.all(sessions.map((session) => session.close()));
  rmSync(directory, { recursive: true, force: true });
}
