/**
 * Ingestion benchmark: `npm run bench [-- --small] [--documents N] [--latency-ms L] [--memory-documents M] [--output-dir DIR]`
 *
 * Against the LLM stand-in (a loopback OpenAI-compatible server that answers from gold data after a
 * configurable latency), with generated hotel pages:
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
 * - peak memory (RSS and V8 heap) while ingesting 10,000 documents, the stand-in answering in-process.
 * Prints one table and writes the figures as JSON to bench/results/ (the previous run with the same
 * sizes is shown alongside). `--small` is a quick run for the test suite. Timings are measurements
 * of this machine, not assertions.
 */
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
import { createInProcessStandInModel } from './in-process-stand-in-model.ts';

const concurrencies = [1, 8, 32] as const;

const { values: flags } = parseArgs({
  options: {
    small: { type: 'boolean', default: false },
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
};

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

async function run() {
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

  log(`generating ${settings.memoryDocuments} hotel pages for the memory measurement`);
  const memoryDocuments = generateHotelCorpus(path.join(workDirectory, 'memory-corpus'), settings.memoryDocuments);
  const memoryStore = await SragStore.open(path.join(workDirectory, 'memory.duckdb'));
  const before = process.memoryUsage();
  const peak = { rss: before.rss, heapUsed: before.heapUsed };
  const sampler = setInterval(() => {
    const usage = process.memoryUsage();
    peak.rss = Math.max(peak.rss, usage.rss);
    peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
  }, 20);
  log(`ingesting ${settings.memoryDocuments} documents, stand-in in-process, concurrency 32`);
  let memoryRun;
  try {
    memoryRun = await timedIngest({ store: memoryStore, table: 'hotels', schema, languageModel: createInProcessStandInModel(memoryDocuments, schemaDocument), concurrency: 32, documents: sourcesOf(memoryDocuments) });
  } finally {
    clearInterval(sampler);
    memoryStore.close();
  }

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
    memory: {
      documents: settings.memoryDocuments,
      seconds: memoryRun.seconds,
      documentsPerSecond: settings.memoryDocuments / memoryRun.seconds,
      baselineRssBytes: before.rss,
      baselineHeapBytes: before.heapUsed,
      peakRssBytes: peak.rss,
      peakHeapBytes: peak.heapUsed,
    },
  };
}

type Results = Awaited<ReturnType<typeof run>>;

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

function table(results: Results, previous: Results | undefined): string {
  type Row = [measure: string, result: string, ideal: string, ratio: string, before: string];
  const rows: Row[] = results.throughput.map((entry, index) => {
    const earlier = previous?.throughput[index];
    return [
      `ingest throughput, concurrency ${entry.concurrency}`,
      `${decimal(entry.documentsPerSecond)} docs/s (${decimal(entry.seconds, 2)} s)`,
      `${decimal(settings.documents / entry.idealSeconds)} docs/s (${decimal(entry.idealSeconds, 2)} s, ${entry.calls} calls)`,
      decimal(entry.ratioToIdeal, 2),
      earlier ? `${decimal(earlier.documentsPerSecond)} docs/s, ratio ${decimal(earlier.ratioToIdeal, 2)}` : '–',
    ];
  });
  const memory = results.memory;
  rows.push(
    ['per-document overhead, every reply cached', `${decimal(results.cached.millisecondsPerDocument, 2)} ms/doc (${integer(results.cached.documentsPerSecond)} docs/s)`, '–', '–',
      previous ? `${decimal(previous.cached.millisecondsPerDocument, 2)} ms/doc` : '–'],
    ['prompt tokens per document: fixed prefix', `${integer(results.promptTokens.prefix)} (instructions + schema; ${integer(results.promptTokens.batchPrefix ?? 0)} for a batch)`, '–', '–', previous ? integer(previous.promptTokens.prefix) : '–'],
    ['prompt tokens per document: the document', `${integer(results.promptTokens.documentMean)} mean (${integer(results.promptTokens.documentMin)}–${integer(results.promptTokens.documentMax)})`, '–', '–',
      previous ? `${integer(previous.promptTokens.documentMean)} mean` : '–'],
    ['prompt tokens per document: prefix share', `${decimal(results.promptTokens.prefixShare * 100)} %`, '–', '–', previous ? `${decimal(previous.promptTokens.prefixShare * 100)} %` : '–'],
    ...results.promptTokens.sent.map((entry): Row => {
      const earlier = previous?.promptTokens.sent?.find((candidate) => candidate.batchSize === entry.batchSize);
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
    [`peak RSS, ${integer(memory.documents)} documents`, `${megabytes(memory.peakRssBytes)} (+${megabytes(memory.peakRssBytes - memory.baselineRssBytes)} over ${megabytes(memory.baselineRssBytes)} before)`, '–', '–',
      previous ? megabytes(previous.memory.peakRssBytes) : '–'],
    [`peak V8 heap, ${integer(memory.documents)} documents`, `${megabytes(memory.peakHeapBytes)} (+${megabytes(memory.peakHeapBytes - memory.baselineHeapBytes)} over ${megabytes(memory.baselineHeapBytes)} before)`, '–', '–',
      previous ? megabytes(previous.memory.peakHeapBytes) : '–'],
    [`ingest rate, ${integer(memory.documents)} documents, no latency`, `${integer(memory.documentsPerSecond)} docs/s (${decimal(memory.seconds, 1)} s)`, '–', '–',
      previous ? `${integer(previous.memory.documentsPerSecond)} docs/s` : '–'],
  );
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
    `srag ingest benchmark: ${settings.documents} generated hotel pages, stand-in latency ${settings.latencyMs} ms; ` +
    `node ${process.version}, ${os.cpus().length} CPUs (${os.platform()}/${os.arch()}); ${date}\n\n${table(results, previous?.results)}\n`,
  );
  mkdirSync(outputDirectory, { recursive: true });
  const file = path.join(outputDirectory, `ingest-${date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ date, node: process.version, cpus: os.cpus().length, platform: `${os.platform()}/${os.arch()}`, settings, results }, null, 2)}\n`);
  process.stdout.write(`\nwrote ${path.relative(process.cwd(), file) || file}${previous ? `; previous run: ${previous.file}` : ''}\n`);
} finally {
  rmSync(workDirectory, { recursive: true, force: true });
}
