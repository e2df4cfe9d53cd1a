/**
 * Ingestion benchmark: `npm run bench [-- --small] [--cli-only] [--documents N] [--latency-ms L]
 *   [--cli-documents C] [--repeats R] [--memory-documents M] [--output-dir DIR]`
 *
 * Against the LLM stand-in (a loopback OpenAI-compatible server that answers from gold data after a
 * configurable latency), with generated hotel pages:
 * - `srag ingest` itself (the CLI in a child process, the stand-in in this one, so that what is
 *   measured is srag's alone) over C pages (default 3,000), 64 requests in flight: srag's CPU per
 *   document (user + system, all its threads; R runs, default 3, given as a range) with the stand-in
 *   answering at once, its peak RSS and the o200k prompt tokens it sent per document, with evidence
 *   and with `--no-evidence`, beside the CPU of a fixed JavaScript workload run before and after each
 *   evidence run (bench/reference-workload.mjs: how fast the machine was meanwhile); the CPU of a
 *   one-page ingest (what starting and finishing cost); and
 *   the wall time with the stand-in answering after 50 ms, against the ideal for such an endpoint
 *   (⌈calls ÷ 64⌉ × 50 ms), and srag's CPU per document when replies come one at a time (4 in
 *   flight, 50 ms each). `--cli-only` measures this alone;
 * - throughput at concurrency 1, 8 and 32, as documents/s and as a ratio to the ideal
 *   (⌈calls ÷ concurrency⌉ × latency: what the model's latency alone would cost for the calls made);
 * - srag's own cost per document when every model reply comes from the response cache;
 * - prompt tokens per document, split into the fixed prefix (instructions + schema, the same for
 *   every document, so providers' prompt caching covers it) and the document itself (o200k tokens);
 * - prompt tokens as sent per document (every request's messages, o200k), one document per call and
 *   with the default batching (goal ≤ 600 for these ~180-token pages), and the cached prompt tokens
 *   the stand-in reports for the repeated instructions, and the `--dry-run` estimate against what was sent;
 * - exactness: the table from the default batching, and from batching with a model that swaps two
 *   documents' records in every shared reply, row for row against the table from one document per call;
 * - peak RSS of `srag ingest` (the CLI, as above) over M pages (default 10,000; the goal is ≤ 400 MB at
 *   100,000: `--memory-documents 100000`), srag's CPU per document over those M pages (one run; the
 *   CPU goal holds for any run of 3,000 pages or more, and at M the start weighs less per document),
 *   and its CPU per page past the first C of them (that run less the median C-page run): what a
 *   document costs once srag has started and V8 has warmed up.
 * Prints one table and writes the figures as JSON to bench/results/ (the previous run with the same
 * sizes is shown alongside). `--small` is a quick run for the test suite. Timings are measurements
 * of this machine, not assertions.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import {
  documentText, estimateExtractionRun, ModelClient, runExtraction, parseRecordSchema, renderBatchExtractionInstructions, renderExtractionInstructions,
  type DocumentSource, type LanguageModel, type RecordSchema,
} from '../core/index.ts';
import { countTokens } from '../node/runtime/count-tokens.ts';
import { hashText } from '../node/runtime/hash-text.ts';
import { loadPromptLibrary } from '../node/runtime/load-prompt-library.ts';
import { OpenAiLanguageModel } from '../node/runtime/openai-language-model.ts';
import { SragStore } from '../node/duckdb/store/srag-store.ts';
import { startLlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { generateHotelCorpus, type GeneratedDocument } from './generate-hotel-corpus.ts';
import { measureCliIngest, type CliIngestFigures } from './measure-cli-ingest.ts';

const concurrencies = [1, 8, 32] as const;

const { values: flags } = parseArgs({
  options: {
    small: { type: 'boolean', default: false },
    'cli-only': { type: 'boolean', default: false },
    'cli-documents': { type: 'string' },
    repeats: { type: 'string' },
    documents: { type: 'string' },
    'latency-ms': { type: 'string' },
    'memory-documents': { type: 'string' },
    'output-dir': { type: 'string', default: fileURLToPath(new URL('./results/', import.meta.url)) },
  },
});

function count(name: string, text: string | undefined, fallback: number, minimum = 1): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum) {
    process.stderr.write(`bench: --${name} must be a whole number ≥ ${minimum}, got ${JSON.stringify(text)}\n`);
    process.exit(2);
  }
  return value;
}

const settings = {
  documents: count('documents', flags.documents, flags.small ? 16 : 128),
  latencyMs: count('latency-ms', flags['latency-ms'], flags.small ? 20 : 200, 0),
  memoryDocuments: count('memory-documents', flags['memory-documents'], flags.small ? 200 : 10_000),
  cliDocuments: count('cli-documents', flags['cli-documents'], flags.small ? 100 : 3_000),
  repeats: count('repeats', flags.repeats, flags.small ? 1 : 3),
  cliOnly: flags['cli-only'] ?? false,
};

/** A fast endpoint (vLLM or llama.cpp on a local GPU): replies in 50 ms, 64 requests in flight. */
const fastEndpoint = { latencyMs: 50, concurrency: 64 };
/**
 * An endpoint that answers steadily, a reply at a time (a few calls in flight, each taking a while):
 * replies then arrive slower than srag reads them, and what each reply costs on its own (a commit
 * of its few rows, among others) shows. With replies in bursts it is shared.
 */
const steadyEndpoint = { latencyMs: 50, concurrency: 4 };

const workDirectory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-'));
const prompts = loadPromptLibrary();
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** The o200k tokens of every request's messages (what an OpenAI endpoint counts as prompt, less a few per message), per call and per document. */
function sentPromptTokens(requests: ReadonlyArray<{ kind: string; body: { messages: Array<{ content: string }> } }>) {
  const extractions = requests.filter((request) => request.kind.startsWith('extract-record'));
  const perCall = extractions.map((request) => request.body.messages.reduce((sum, message) => sum + countTokens(message.content), 0));
  const sent = perCall.reduce((sum, tokens) => sum + tokens, 0);
  return { calls: extractions.length, sent, perDocument: sent / settings.documents, largestCall: perCall.reduce((most, tokens) => Math.max(most, tokens), 0) };
}

/** Every row of `hotels` as one JSON line, in _source order (the content hash left out: a document's, not a value). */
async function tableRows(store: SragStore): Promise<string[]> {
  return store.exclusive(async (connection) => {
    const reader = await connection.runAndReadAll('SELECT * EXCLUDE ("_content_hash") FROM hotels ORDER BY "_source"');
    return reader.getRowObjectsJson().map((row) => JSON.stringify(row));
  });
}

function sourcesOf(documents: readonly GeneratedDocument[]): DocumentSource[] {
  return documents.map((document) => ({ source: document.path, read: async () => readFileSync(document.path, 'utf8') }));
}

/** One ingest into table `table` of the store at `storePath` (created if absent); returns seconds, the summary and the model calls made. */
async function timedIngest(options: { store: SragStore; table: string; schema: RecordSchema; languageModel: LanguageModel; concurrency: number; documents: DocumentSource[]; batchSize?: number }) {
  const { store, table, schema } = options;
  await store.registerTable(table, schema);
  const extractionStore = store.extractionStore(table, schema);
  const client = new ModelClient({ languageModel: options.languageModel, cache: extractionStore.responseCache, sleep: (milliseconds) => wait(milliseconds), maxConcurrency: options.concurrency, retry: { maxRetries: 0 }, hashText });
  const started = performance.now();
  const summary = await runExtraction({
    client, prompts, schema, documents: options.documents, store: extractionStore,
    loadTokenCounter: async () => countTokens, concurrency: options.concurrency * 2, hashText, batchSize: options.batchSize,
  });
  const seconds = (performance.now() - started) / 1000;
  if (summary.done !== options.documents.length) throw new Error(`${table}: only ${summary.done} of ${options.documents.length} documents ingested: ${summary.failures[0]?.error ?? ''}`);
  return { seconds, summary, calls: client.usage.total().calls };
}

/** The in-process measurements: throughput by concurrency, prompt tokens by batching, exactness, cached overhead. */
async function measureInProcess() {
  log(`generating ${settings.documents} hotel pages in ${workDirectory}`);
  const corpusDirectory = path.join(workDirectory, 'corpus');
  const documents = generateHotelCorpus(corpusDirectory, settings.documents);
  const schemaDocument = JSON.parse(readFileSync(path.join(corpusDirectory, 'schema.json'), 'utf8')) as { title: string; properties: Record<string, unknown> };
  const schema = parseRecordSchema(schemaDocument, 'schema.json');

  const standIn = await startLlmStandIn({ corpora: [corpusDirectory], latencyMs: settings.latencyMs });
  const languageModel = new OpenAiLanguageModel({ baseURL: standIn.url, apiKey: 'bench-not-a-key', model: 'srag-stand-in', timeoutMilliseconds: 120_000 });
  const throughput: Array<{ concurrency: number; calls: number; seconds: number; documentsPerSecond: number; idealSeconds: number; ratioToIdeal: number }> = [];
  const promptTokens: Array<{
    batchSize: number | 'default'; calls: number; sent: number; perDocument: number; largestCall: number; cachedPromptTokens: number; reportedPromptTokens: number;
    estimatedCalls: number; estimatedPromptTokens: number;
  }> = [];
  // The tables each way, one line per row in _source order: batching must not change a value.
  const tables = new Map<string, string[]>();
  let lastStore: SragStore | undefined;
  let swapIdsCalls = 0;
  try {
    for (const concurrency of concurrencies) {
      lastStore?.close();
      lastStore = await SragStore.open(path.join(workDirectory, `throughput-${concurrency}.duckdb`));
      log(`ingesting ${settings.documents} documents at concurrency ${concurrency}, ${settings.latencyMs} ms per reply`);
      const { seconds, calls } = await timedIngest({ store: lastStore, table: 'hotels', schema, languageModel, concurrency, documents: sourcesOf(documents) });
      // The model's latency alone for the calls made (short pages share calls by default).
      const idealSeconds = (Math.ceil(calls / concurrency) * settings.latencyMs) / 1000;
      throughput.push({ concurrency, calls, seconds, documentsPerSecond: settings.documents / seconds, idealSeconds, ratioToIdeal: seconds > 0 ? idealSeconds / seconds : 0 });
    }

    // Prompt tokens as sent: every request's messages in o200k tokens, per document, one document
    // per call and then at the default (short documents share calls).
    standIn.setOptions({ latencyMs: 0 });
    for (const batchSize of [1, undefined]) {
      const store = await SragStore.open(path.join(workDirectory, `prompt-tokens-${batchSize ?? 'default'}.duckdb`));
      try {
        standIn.reset();
        // What srag ingest --dry-run prints, from the same plan, before the run.
        const estimate = await estimateExtractionRun({
          prompts, schema, documents: sourcesOf(documents), store: store.extractionStore('hotels', schema), batchSize, loadTokenCounter: async () => countTokens, hashText,
        });
        const { summary } = await timedIngest({ store, table: 'hotels', schema, languageModel, concurrency: 8, documents: sourcesOf(documents), batchSize });
        tables.set(String(batchSize ?? 'default'), await tableRows(store));
        promptTokens.push({
          batchSize: batchSize ?? 'default', ...sentPromptTokens(standIn.requests), cachedPromptTokens: summary.cachedPromptTokens, reportedPromptTokens: summary.promptTokens,
          estimatedCalls: estimate.calls, estimatedPromptTokens: estimate.promptTokens,
        });
      } finally {
        store.close();
      }
    }
    // Default batching again, the model giving the first two documents of every shared call each
    // other's record: the quotes give it away, the call is split down to where it holds.
    standIn.setOptions({ batchSlips: ['swap-ids'] });
    const slipStore = await SragStore.open(path.join(workDirectory, 'swap-ids.duckdb'));
    try {
      standIn.reset();
      const { calls } = await timedIngest({ store: slipStore, table: 'hotels', schema, languageModel, concurrency: 8, documents: sourcesOf(documents) });
      tables.set('swap-ids', await tableRows(slipStore));
      swapIdsCalls = calls;
    } finally {
      slipStore.close();
      standIn.setOptions({ batchSlips: [] });
    }
  } finally {
    await standIn.close();
  }
  const oneByOne = tables.get('1')!;
  // Rows found as they are in the one-per-call table, and rows that are not (a moved or changed value).
  const compare = (rows: string[]) => {
    const identical = rows.filter((row) => oneByOne.includes(row)).length;
    return { identical, different: rows.length - identical };
  };
  const exactness = { rows: oneByOne.length, defaultBatching: compare(tables.get('default')!), swapIds: compare(tables.get('swap-ids')!), swapIdsCalls };

  // Same documents, same prompts, a fresh table in the last store: every reply is in its cache.
  log('ingesting again with every reply cached');
  const cached = await timedIngest({ store: lastStore!, table: 'hotels_cached', schema, languageModel, concurrency: 8, documents: sourcesOf(documents) });
  if (cached.summary.fromCache !== settings.documents) throw new Error(`expected every reply from the cache, got ${cached.summary.fromCache} of ${settings.documents}`);
  lastStore!.close();

  const prefixTokens = countTokens(renderExtractionInstructions(prompts, schema, true));
  const batchPrefixTokens = countTokens(renderBatchExtractionInstructions(prompts, schema, true));
  const documentTokens = documents.map((document) => countTokens(`<document>\n${documentText(document.path, readFileSync(document.path, 'utf8'))}\n</document>`));
  const meanDocumentTokens = documentTokens.reduce((sum, tokens) => sum + tokens, 0) / documentTokens.length;

  return {
    throughput,
    cached: { seconds: cached.seconds, millisecondsPerDocument: (cached.seconds * 1000) / settings.documents, documentsPerSecond: settings.documents / cached.seconds },
    promptTokens: {
      prefix: prefixTokens,
      batchPrefix: batchPrefixTokens,
      documentMean: meanDocumentTokens,
      documentMin: documentTokens.reduce((least, count) => Math.min(least, count), Infinity),
      documentMax: documentTokens.reduce((most, count) => Math.max(most, count), 0),
      prefixShare: prefixTokens / (prefixTokens + meanDocumentTokens),
      sent: promptTokens,
    },
    exactness,
  };
}

/**
 * `srag ingest` itself over `settings.cliDocuments` pages (see the file's comment): CPU, memory and
 * prompt tokens with the stand-in answering at once, repeated; wall time against a fast endpoint's
 * ideal; then peak RSS over `settings.memoryDocuments` pages.
 */
async function measureCli() {
  log(`generating ${settings.cliDocuments} hotel pages for srag ingest`);
  const corpus = path.join(workDirectory, 'cli-corpus');
  generateHotelCorpus(corpus, settings.cliDocuments);
  const directory = path.join(workDirectory, 'cli');
  mkdirSync(directory, { recursive: true });
  const standIn = await startLlmStandIn({ corpora: [corpus] });
  const measure = (label: string, extra: Partial<Parameters<typeof measureCliIngest>[0]> = {}) => {
    log(`srag ingest of ${extra.documents ?? settings.cliDocuments} pages: ${label}`);
    return measureCliIngest({ standIn, directory, corpus, documents: settings.cliDocuments, concurrency: fastEndpoint.concurrency, ...extra });
  };
  let cli;
  try {
    // Warms the bundle the CLI runs from (built from the sources on a first start) and the file cache.
    await measure('warming up', { corpus, documents: settings.cliDocuments });
    const evidence: CliIngestFigures[] = [];
    const reference: number[] = [];
    for (let repeat = 0; repeat < settings.repeats; repeat += 1) {
      reference.push(referenceWorkloadMilliseconds());
      evidence.push(await measure(`evidence, run ${repeat + 1} of ${settings.repeats}`));
    }
    reference.push(referenceWorkloadMilliseconds());
    const noEvidence: CliIngestFigures[] = [];
    for (let repeat = 0; repeat < settings.repeats; repeat += 1) noEvidence.push(await measure(`--no-evidence, run ${repeat + 1} of ${settings.repeats}`, { arguments: ['--no-evidence'] }));
    const onePage = path.join(workDirectory, 'one-page');
    generateHotelCorpus(onePage, 1);
    const start = await measure('one page (what starting and finishing cost)', { corpus: onePage, documents: 1 });
    standIn.setOptions({ latencyMs: fastEndpoint.latencyMs });
    const fast = await measure(`replies after ${fastEndpoint.latencyMs} ms`);
    standIn.setOptions({ latencyMs: steadyEndpoint.latencyMs });
    const steady = await measure(`replies after ${steadyEndpoint.latencyMs} ms, ${steadyEndpoint.concurrency} in flight`, { concurrency: steadyEndpoint.concurrency });
    cli = { evidence, referenceMilliseconds: reference, noEvidence, start, steady, fast: { ...fast, idealSeconds: (Math.ceil(fast.calls / fastEndpoint.concurrency) * fastEndpoint.latencyMs) / 1000 } };
  } finally {
    await standIn.close();
  }

  log(`generating ${settings.memoryDocuments} hotel pages for the memory measurement`);
  const memoryCorpus = path.join(workDirectory, 'memory-corpus');
  generateHotelCorpus(memoryCorpus, settings.memoryDocuments);
  // A large corpus's prompts are more than this process should hold: the tokens are counted above.
  const memoryStandIn = await startLlmStandIn({ corpora: [memoryCorpus], recordBodies: false });
  let memory;
  try {
    log(`srag ingest of ${settings.memoryDocuments} pages for its peak RSS`);
    memory = await measureCliIngest({ standIn: memoryStandIn, directory, corpus: memoryCorpus, documents: settings.memoryDocuments, concurrency: fastEndpoint.concurrency });
  } finally {
    await memoryStandIn.close();
  }
  return { ...cli, memory };
}

async function run() {
  const cli = await measureCli();
  return { cli, inProcess: settings.cliOnly ? undefined : await measureInProcess() };
}

type Results = Awaited<ReturnType<typeof run>>;
type InProcessResults = Awaited<ReturnType<typeof measureInProcess>>;

function previousResults(directory: string): { file: string; results: Results } | undefined {
  let files: string[];
  try {
    files = readdirSync(directory).filter((name) => /^ingest-.*\.json$/.test(name)).sort().reverse();
  } catch {
    return undefined;
  }
  for (const file of files) {
    try {
      const saved = JSON.parse(readFileSync(path.join(directory, file), 'utf8')) as { settings: typeof settings; results: Results };
      if (JSON.stringify(saved.settings) === JSON.stringify(settings)) return { file, results: saved.results };
    } catch {
      // not one of ours, or truncated: skip it
    }
  }
  return undefined;
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const decimal = (value: number, digits = 1) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const megabytes = (bytes: number) => `${integer(bytes / 1024 / 1024)} MB`;

type Row = [measure: string, result: string, ideal: string, ratio: string, before: string];

/**
 * The CPU milliseconds of bench/reference-workload.mjs in a fresh node: the same JavaScript work
 * every time, run before and after each measured evidence ingest, so that a result says how fast
 * the machine was while srag was measured.
 */
function referenceWorkloadMilliseconds(): number {
  const output = execFileSync(process.execPath, [fileURLToPath(new URL('./reference-workload.mjs', import.meta.url))], { encoding: 'utf8' });
  return (JSON.parse(output) as { cpuMilliseconds: number }).cpuMilliseconds;
}

/** The item in the middle of `items` ordered by `key` (the upper one of an even count): a median run. */
function middleOf<T>(items: readonly T[], key: (item: T) => number): T {
  return [...items].sort((left, right) => key(left) - key(right))[Math.floor(items.length / 2)]!;
}

/** The rows of `srag ingest` itself (see `measureCli`). */
function cliRows(cli: Results['cli'], previous: Results['cli'] | undefined): Row[] {
  const documents = integer(settings.cliDocuments);
  const range = (values: number[], digits: number) => {
    const low = Math.min(...values);
    const high = Math.max(...values);
    return low === high ? decimal(low, digits) : `${decimal(low, digits)}–${decimal(high, digits)}`;
  };
  const cpu = (runs: CliIngestFigures[]) => `${range(runs.map((run) => run.cpuMillisecondsPerDocument), 2)} ms/doc (${range(runs.map((run) => run.cpuSeconds), 1)} s, main thread ${range(runs.map((run) => run.mainThreadCpuSeconds), 1)} s; ${runs.length} runs)`;
  const median = (runs: CliIngestFigures[]) => middleOf(runs, (run) => run.cpuMillisecondsPerDocument).cpuMillisecondsPerDocument;
  const earlierCpu = (runs: CliIngestFigures[] | undefined) => (runs ? `${range(runs.map((run) => run.cpuMillisecondsPerDocument), 2)} ms/doc` : '–');
  const tokens = (runs: CliIngestFigures[]) => `${integer(runs[0]!.promptTokensPerDocument ?? 0)} (${integer(runs[0]!.calls)} calls)`;
  const { memory, fast, start } = cli;
  const reference = (runs: number[] | undefined) => (runs?.length ? `${range(runs, 0)} ms (median ${integer(middleOf(runs, (run) => run))})` : '–');
  return [
    // Read the CPU figures against it: the same work took a third more on this machine in a slow hour.
    ['reference workload, the same JavaScript beside each evidence run (CPU; how fast the machine was)', reference(cli.referenceMilliseconds), '–', '–', reference(previous?.referenceMilliseconds)],
    [`srag CPU per document, ${documents} pages, evidence`, cpu(cli.evidence), '≤ 1 ms (goal)', decimal(median(cli.evidence), 2), earlierCpu(previous?.evidence)],
    [`srag CPU per document, ${documents} pages, --no-evidence`, cpu(cli.noEvidence), '≤ 1 ms (goal)', decimal(median(cli.noEvidence), 2), earlierCpu(previous?.noEvidence)],
    // What each further document costs once srag has started: the one-page run's CPU is mostly
    // starting (loading DuckDB and the bundle, opening and closing the file), paid once per run.
    [`srag CPU per document beyond the start, ${documents} pages, evidence`,
      `${range(cli.evidence.map((run) => (run.cpuSeconds - start.cpuSeconds) * 1000 / (settings.cliDocuments - 1)), 2)} ms/doc`, '–', '–',
      previous ? `${range(previous.evidence.map((run) => (run.cpuSeconds - previous.start.cpuSeconds) * 1000 / (settings.cliDocuments - 1)), 2)} ms/doc` : '–'],
    // The same goal over the memory run (one run, the same settings): it is for any run of 3,000
    // pages or more, and the 0.7 s srag takes to start and finish weighs less per document here.
    [`srag CPU per document, ${integer(memory.documents)} pages, evidence (one run)`,
      `${decimal(memory.cpuMillisecondsPerDocument, 2)} ms/doc (${decimal(memory.cpuSeconds, 1)} s, main thread ${decimal(memory.mainThreadCpuSeconds, 1)} s)`,
      memory.documents >= 3_000 ? '≤ 1 ms (goal)' : '–', memory.documents >= 3_000 ? decimal(memory.cpuMillisecondsPerDocument, 2) : '–',
      previous?.memory.documents === memory.documents ? `${decimal(previous.memory.cpuMillisecondsPerDocument, 2)} ms/doc` : '–'],
    // What a document costs once srag is warm: the memory run's pages past the first
    // `cliDocuments`, less the median evidence run (the same pages, schema and settings). At a few
    // thousand pages a run's figure is mostly starting and V8's warm-up, both paid once per process.
    [`srag CPU per document, pages ${integer(settings.cliDocuments + 1)}–${integer(memory.documents)} (the ${integer(memory.documents)}-page run less the median ${documents}-page run)`,
      laterPagesCpu(cli) ?? '–', '–', '–', (previous && laterPagesCpu(previous)) ?? '–'],
    ['srag CPU of a one-page ingest (start and finish)', `${decimal(start.cpuSeconds, 2)} s (main thread ${decimal(start.mainThreadCpuSeconds, 2)} s)`, '–', '–',
      previous ? `${decimal(previous.start.cpuSeconds, 2)} s` : '–'],
    [`srag CPU per document, ${documents} pages, evidence, replies one at a time (${steadyEndpoint.concurrency} in flight, ${steadyEndpoint.latencyMs} ms each)`,
      `${decimal(cli.steady.cpuMillisecondsPerDocument, 2)} ms/doc (${integer(cli.steady.calls)} calls, ${decimal(cli.steady.wallSeconds, 1)} s)`, '–', '–',
      previous?.steady ? `${decimal(previous.steady.cpuMillisecondsPerDocument, 2)} ms/doc` : '–'],
    [`peak RSS, ${documents} pages`, `${range(cli.evidence.map((run) => run.peakRssMegabytes), 0)} MB`, '–', '–',
      previous ? `${range(previous.evidence.map((run) => run.peakRssMegabytes), 0)} MB` : '–'],
    [`prompt tokens sent per document, ${documents} pages, evidence`, tokens(cli.evidence), '–', '–', previous ? tokens(previous.evidence) : '–'],
    [`prompt tokens sent per document, ${documents} pages, --no-evidence`, tokens(cli.noEvidence), '–', '–', previous ? tokens(previous.noEvidence) : '–'],
    [`wall time, ${documents} pages, replies after ${fastEndpoint.latencyMs} ms, ${fastEndpoint.concurrency} in flight`,
      `${decimal(fast.wallSeconds, 1)} s (${integer(fast.calls)} calls; srag CPU ${decimal(fast.cpuSeconds, 1)} s)`, `${decimal(fast.idealSeconds, 1)} s`,
      decimal(fast.idealSeconds / fast.wallSeconds, 2), previous ? `${decimal(previous.fast.wallSeconds, 1)} s, ratio ${decimal(previous.fast.idealSeconds / previous.fast.wallSeconds, 2)}` : '–'],
    [`peak RSS, ${integer(memory.documents)} pages`, `${integer(memory.peakRssMegabytes)} MB (CPU ${decimal(memory.cpuMillisecondsPerDocument, 2)} ms/doc, ${decimal(memory.wallSeconds, 0)} s)`,
      memory.documents >= 100_000 ? '≤ 400 MB (goal)' : '–', memory.documents >= 100_000 ? decimal(memory.peakRssMegabytes / 400, 2) : '–',
      previous?.memory.documents === memory.documents ? `${integer(previous.memory.peakRssMegabytes)} MB` : '–'],
  ];
}

/**
 * srag's CPU per page of the memory run past the first `cliDocuments` pages, from the difference to
 * the median evidence run, with the main thread's share; undefined when that run is not larger.
 */
function laterPagesCpu(cli: Results['cli']): string | undefined {
  const later = cli.memory.documents - settings.cliDocuments;
  if (later <= 0) return undefined;
  const median = middleOf(cli.evidence, (run) => run.cpuSeconds);
  const perPage = (memorySeconds: number, evidenceSeconds: number) => decimal(((memorySeconds - evidenceSeconds) * 1000) / later, 2);
  // Results saved before the main thread was measured have no such figure.
  const mainThread = cli.memory.mainThreadCpuSeconds === undefined ? '' : ` (main thread ${perPage(cli.memory.mainThreadCpuSeconds, median.mainThreadCpuSeconds)})`;
  return `${perPage(cli.memory.cpuSeconds, median.cpuSeconds)} ms/doc${mainThread}`;
}

function table(results: Results, previous: Results | undefined): string {
  return render([...cliRows(results.cli, previous?.cli), ...(results.inProcess ? inProcessRows(results.inProcess, previous?.inProcess) : [])]);
}

/** The rows of the in-process measurements (see `measureInProcess`). */
function inProcessRows(results: InProcessResults, previousInProcess: InProcessResults | undefined): Row[] {
  const rows: Row[] = results.throughput.map((entry, index) => {
    const earlier = previousInProcess?.throughput[index];
    return [
      `ingest throughput, concurrency ${entry.concurrency}`,
      `${decimal(entry.documentsPerSecond)} docs/s (${decimal(entry.seconds, 2)} s)`,
      `${decimal(settings.documents / entry.idealSeconds)} docs/s (${decimal(entry.idealSeconds, 2)} s, ${entry.calls} calls)`,
      decimal(entry.ratioToIdeal, 2),
      earlier ? `${decimal(earlier.documentsPerSecond)} docs/s, ratio ${decimal(earlier.ratioToIdeal, 2)}` : '–',
    ];
  });
  rows.push(
    ['per-document overhead, every reply cached', `${decimal(results.cached.millisecondsPerDocument, 2)} ms/doc (${integer(results.cached.documentsPerSecond)} docs/s)`, '–', '–',
      previousInProcess ? `${decimal(previousInProcess.cached.millisecondsPerDocument, 2)} ms/doc` : '–'],
    ['prompt tokens per document: fixed prefix', `${integer(results.promptTokens.prefix)} (instructions + schema; ${integer(results.promptTokens.batchPrefix ?? 0)} for a batch)`, '–', '–', previousInProcess ? integer(previousInProcess.promptTokens.prefix) : '–'],
    ['prompt tokens per document: the document', `${integer(results.promptTokens.documentMean)} mean (${integer(results.promptTokens.documentMin)}–${integer(results.promptTokens.documentMax)})`, '–', '–',
      previousInProcess ? `${integer(previousInProcess.promptTokens.documentMean)} mean` : '–'],
    ['prompt tokens per document: prefix share', `${decimal(results.promptTokens.prefixShare * 100)} %`, '–', '–', previousInProcess ? `${decimal(previousInProcess.promptTokens.prefixShare * 100)} %` : '–'],
    ...results.promptTokens.sent.map((entry): Row => {
      const earlier = previousInProcess?.promptTokens.sent?.find((candidate) => candidate.batchSize === entry.batchSize);
      const how = entry.batchSize === 1 ? 'one document per call' : 'default batching';
      return [`prompt tokens sent per document, ${how}`, `${integer(entry.perDocument)} (${integer(entry.calls)} calls, largest ${integer(entry.largestCall)})`,
        entry.batchSize === 1 ? '–' : '≤ 600 (goal)', entry.batchSize === 1 ? '–' : decimal(entry.perDocument / 600, 2), earlier ? integer(earlier.perDocument) : '–'];
    }),
    ...results.promptTokens.sent.map((entry): Row => [`dry-run estimate vs sent, ${entry.batchSize === 1 ? 'one document per call' : 'default batching'}`,
      `${integer(entry.estimatedPromptTokens)} vs ${integer(entry.sent)} prompt tokens, ${integer(entry.estimatedCalls)} vs ${integer(entry.calls)} calls`,
      'within 25 %', decimal(entry.estimatedPromptTokens / entry.sent, 2), '–']),
    ...results.promptTokens.sent.map((entry): Row => [`cached prompt tokens reported, ${entry.batchSize === 1 ? 'one document per call' : 'default batching'}`,
      `${integer(entry.cachedPromptTokens)} of ${integer(entry.reportedPromptTokens)} (${decimal(entry.reportedPromptTokens ? entry.cachedPromptTokens / entry.reportedPromptTokens * 100 : 0)} %, the stand-in's count)`, '–', '–', '–']),
    ...([['default batching', results.exactness.defaultBatching, ''], ['batching, every shared reply swapping two ids', results.exactness.swapIds, `, ${integer(results.exactness.swapIdsCalls)} calls`]] as const)
      .map(([how, { identical, different }, calls]): Row => [`table rows as one document per call, ${how}`,
        `${integer(identical)} of ${integer(results.exactness.rows)} identical, ${integer(different)} different${calls}`, `${integer(results.exactness.rows)} identical`,
        decimal((identical - different) / results.exactness.rows, 2), '–']),
  );
  return rows;
}

function render(rows: Row[]): string {
  const header: Row = ['measure', 'result', 'ideal', 'ratio to ideal', 'previous run'];
  const widths = header.map((title, index) => rows.reduce((widest, row) => Math.max(widest, row[index]!.length), title.length));
  const line = (cells: string[]) => cells.map((cell, index) => cell.padEnd(widths[index]!)).join('  ').trimEnd();
  return [line(header), widths.map((width) => '─'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

try {
  const results = await run();
  const outputDirectory = flags['output-dir']!;
  const previous = previousResults(outputDirectory);
  const date = new Date().toISOString();
  process.stdout.write(
    `srag ingest benchmark: srag ingest of ${settings.cliDocuments} and ${settings.memoryDocuments} generated hotel pages` +
    `${settings.cliOnly ? '' : `, in process ${settings.documents} pages with the stand-in answering after ${settings.latencyMs} ms`}; ` +
    `load average ${os.loadavg()[0]!.toFixed(1)}; ` +
    `node ${process.version}, ${os.cpus().length} CPUs (${os.platform()}/${os.arch()}); ${date}\n\n${table(results, previous?.results)}\n`,
  );
  mkdirSync(outputDirectory, { recursive: true });
  const file = path.join(outputDirectory, `ingest-${date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ date, node: process.version, cpus: os.cpus().length, platform: `${os.platform()}/${os.arch()}`, settings, results }, null, 2)}\n`);
  process.stdout.write(`\nwrote ${path.relative(process.cwd(), file) || file}${previous ? `; previous run: ${previous.file}` : ''}\n`);
} finally {
  rmSync(workDirectory, { recursive: true, force: true });
}
