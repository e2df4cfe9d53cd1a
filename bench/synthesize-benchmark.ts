/**
 * Synthesized-extractor benchmark: `npm run bench:synthesize [-- --documents N] [--seed S] [--recheck-every K] [--output-dir DIR]`
 *
 * On a templated corpus of generated car listings (one dealer's layout, 1,000 by default, seeded),
 * against the LLM stand-in:
 * - per-document extraction, as `srag ingest` runs it: the model tokens it takes (o200k, counted on
 *   every request and reply sent);
 * - `srag ingest --synthesize`: the model extracts a few documents, writes a function per attribute
 *   and code reads the rest — its model tokens, the ratio to per-document extraction (goal ≥ 10×),
 *   the attributes accepted and the values code read;
 * - the same when one function is wrong (the stand-in's plausible slip in the contact name): that
 *   attribute stays with the model, every other document's request carries only it;
 * - whether each synthesized table is identical to the per-document one (goal: identical).
 * Prints one table and writes the figures as JSON to bench/results/. Token counts are exact for the
 * requests sent; timings are this machine's, not assertions.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  ModelClient, parseRecordSchema, runExtraction, runSynthesizedExtraction,
  type DocumentSource, type LanguageModel, type RecordSchema, type RunSummary, type SynthesisReport,
} from '../core/index.ts';
import { QuickJsCodeSandbox } from '../node/runtime/code-sandbox/quickjs-code-sandbox.ts';
import { countTokens } from '../node/runtime/count-tokens.ts';
import { hashText } from '../node/runtime/hash-text.ts';
import { loadPromptLibrary } from '../node/runtime/load-prompt-library.ts';
import { OpenAiLanguageModel } from '../node/runtime/openai-language-model.ts';
import { SragStore } from '../node/duckdb/store/srag-store.ts';
import { startLlmStandIn, type LlmStandIn } from '../tests/helpers/llm-stand-in/index.ts';
import { carListingSchema, generateTemplatedCorpus, type TemplatedDocument } from '../tests/helpers/templated-corpus.ts';

const { values: flags } = parseArgs({
  options: {
    documents: { type: 'string', default: '1000' },
    seed: { type: 'string', default: '20251123' },
    'recheck-every': { type: 'string' },
    'output-dir': { type: 'string', default: fileURLToPath(new URL('./results/', import.meta.url)) },
  },
});

function whole(name: string, text: string, minimum: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < minimum) {
    process.stderr.write(`bench:synthesize: --${name} must be a whole number ≥ ${minimum}, got ${JSON.stringify(text)}\n`);
    process.exit(2);
  }
  return value;
}

const settings = {
  documents: whole('documents', flags.documents!, 10), seed: whole('seed', flags.seed!, 0),
  // One document in this many that code reads is read by the model too (ExtractorRecheck); core's default when not given.
  ...(flags['recheck-every'] === undefined ? {} : { recheckEvery: whole('recheck-every', flags['recheck-every'], 1) }),
};
const log = (line: string) => process.stderr.write(`bench:synthesize: ${line}\n`);
const workDirectory = mkdtempSync(path.join(os.tmpdir(), 'srag-bench-synthesize-'));
const prompts = loadPromptLibrary();
const schema: RecordSchema = parseRecordSchema(carListingSchema, 'schema.json');

interface Tokens {
  calls: number;
  prompt: number;
  completion: number;
}

/** The stand-in behind a counter of o200k tokens in every request and reply that reaches it. */
function countingModel(languageModel: LanguageModel, tokens: Tokens): LanguageModel {
  return {
    modelId: languageModel.modelId,
    async doGenerate(request) {
      const response = await languageModel.doGenerate(request);
      tokens.calls += 1;
      tokens.prompt += request.messages.reduce((sum, message) => sum + countTokens(message.content), 0);
      tokens.completion += countTokens(response.text);
      return response;
    },
  };
}

function sources(documents: readonly TemplatedDocument[]): DocumentSource[] {
  return documents.map((document) => ({ source: document.path, label: path.basename(document.path), read: async () => readFileSync(document.path, 'utf8') }));
}

/** One ingest into a database of its own (so no reply comes from another run's cache). */
async function ingest(name: string, standIn: LlmStandIn, documents: readonly TemplatedDocument[], synthesize: boolean) {
  const store = await SragStore.open(path.join(workDirectory, `${name}.duckdb`));
  await store.registerTable('cars', schema);
  const extractionStore = store.extractionStore('cars', schema);
  const tokens: Tokens = { calls: 0, prompt: 0, completion: 0 };
  const languageModel = countingModel(new OpenAiLanguageModel({ baseURL: standIn.url, apiKey: 'bench-not-a-key', model: 'srag-stand-in', timeoutMilliseconds: 120_000 }), tokens);
  const client = new ModelClient({ languageModel, cache: extractionStore.responseCache, sleep: (milliseconds) => wait(milliseconds), maxConcurrency: 8, retry: { maxRetries: 0 }, hashText });
  // As srag ingest runs it (node/cli/ingest-command.ts), but for the CLI's progress and messages.
  const common = { client, prompts, schema, documents: sources(documents), store: extractionStore, loadTokenCounter: async () => countTokens, concurrency: 16, hashText };
  const sandbox = new QuickJsCodeSandbox();
  const started = performance.now();
  let summary: RunSummary;
  let synthesis: SynthesisReport | undefined;
  try {
    if (synthesize) ({ summary, synthesis } = await runSynthesizedExtraction({ ...common, synthesis: { sandbox, extractorStore: store.extractorStore('cars'), recheckEvery: settings.recheckEvery } }));
    else summary = await runExtraction(common);
  } finally {
    await sandbox.close();
  }
  const seconds = (performance.now() - started) / 1000;
  if (summary.done !== documents.length) throw new Error(`${name}: only ${summary.done} of ${documents.length} documents ingested: ${summary.failures[0]?.error ?? ''}`);
  return { store, tokens, seconds, synthesis };
}

/** The table's rows as text, by document, for comparing two runs cell by cell. */
async function tableRows(store: SragStore): Promise<string[]> {
  const columns = schema.attributes.map((attribute) => `"${attribute.name}"::VARCHAR`).join(', ');
  return (await store.connection.runAndReadAll(`SELECT "_source", ${columns} FROM cars ORDER BY "_source"`)).getRowsJS().map((row) => JSON.stringify(row));
}

function differingRows(left: string[], right: string[]): number {
  let differing = Math.abs(left.length - right.length);
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) if (left[index] !== right[index]) differing += 1;
  return differing;
}

async function run() {
  log(`generating ${settings.documents} listings (seed ${settings.seed}) in ${workDirectory}`);
  const corpus = path.join(workDirectory, 'corpus');
  // A few three-word contact names, so that the two-word slip shows on some documents.
  const threeWordContacts = Array.from({ length: Math.ceil(settings.documents / 50) }, (_, index) => index * 50 + 7).filter((index) => index < settings.documents);
  const documents = generateTemplatedCorpus(corpus, settings.documents, { seed: settings.seed, threeWordContacts });
  const standIn = await startLlmStandIn({ corpora: [corpus] });
  try {
    log('per-document extraction');
    const perDocument = await ingest('per-document', standIn, documents, false);
    log('--synthesize');
    const synthesized = await ingest('synthesize', standIn, documents, true);
    log('--synthesize with a wrong function for contact_name');
    standIn.setOptions({ extractorSlips: ['contact_name'] });
    const withSlip = await ingest('synthesize-slip', standIn, documents, true);
    const baseline = await tableRows(perDocument.store);
    const describe = (result: typeof synthesized) => {
      const report = result.synthesis!;
      const total = result.tokens.prompt + result.tokens.completion;
      return {
        calls: result.tokens.calls,
        promptTokens: result.tokens.prompt,
        completionTokens: result.tokens.completion,
        ratio: (perDocument.tokens.prompt + perDocument.tokens.completion) / total,
        seconds: result.seconds,
        accepted: report.extractors.filter((extractor) => extractor.status === 'accepted').map((extractor) => extractor.attribute),
        rejected: report.extractors.filter((extractor) => extractor.status === 'rejected').map((extractor) => ({ attribute: extractor.attribute, reason: extractor.reason })),
        checkedDocuments: report.checkedDocuments,
        recheckedDocuments: report.recheckedDocuments,
        valuesFromCode: Object.values(report.valuesFromCode).reduce((sum, count) => sum + count, 0),
        cells: settings.documents * schema.attributes.length,
      };
    };
    const results = {
      perDocument: { calls: perDocument.tokens.calls, promptTokens: perDocument.tokens.prompt, completionTokens: perDocument.tokens.completion, seconds: perDocument.seconds },
      synthesized: { ...describe(synthesized), differingRows: differingRows(baseline, await tableRows(synthesized.store)) },
      withSlip: { ...describe(withSlip), differingRows: differingRows(baseline, await tableRows(withSlip.store)) },
    };
    for (const store of [perDocument.store, synthesized.store, withSlip.store]) store.close();
    return results;
  } finally {
    await standIn.close();
  }
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');

try {
  const results = await run();
  const rows: string[][] = [['run', 'model calls', 'model tokens (prompt + completion)', 'ratio to per-document', 'attributes by code', 'values by code', 'table vs per-document', 'seconds']];
  rows.push(['per-document extraction', integer(results.perDocument.calls), `${integer(results.perDocument.promptTokens + results.perDocument.completionTokens)} (${integer(results.perDocument.promptTokens)} + ${integer(results.perDocument.completionTokens)})`, '1.0×', '–', '–', '–', results.perDocument.seconds.toFixed(1)]);
  for (const [name, entry] of [['--synthesize', results.synthesized], ['--synthesize, contact_name function wrong', results.withSlip]] as const) {
    rows.push([name, integer(entry.calls), `${integer(entry.promptTokens + entry.completionTokens)} (${integer(entry.promptTokens)} + ${integer(entry.completionTokens)})`, `${entry.ratio.toFixed(1)}×`,
      `${entry.accepted.length} of ${schema.attributes.length}`, `${integer(entry.valuesFromCode)} of ${integer(entry.cells)}`, entry.differingRows === 0 ? 'identical' : `${entry.differingRows} rows differ`, entry.seconds.toFixed(1)]);
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  process.stdout.write(`${[line(rows[0]!), widths.map((width) => '─'.repeat(width)).join('  '), ...rows.slice(1).map(line)].join('\n')}\n`);
  for (const rejected of results.withSlip.rejected) process.stdout.write(`with the slip, ${rejected.attribute} stays with the model: ${rejected.reason}\n`);
  process.stdout.write(`goal: ≥ 10× fewer model tokens with --synthesize, identical tables — ${results.synthesized.ratio >= 10 && results.synthesized.differingRows === 0 && results.withSlip.differingRows === 0 ? 'met' : 'NOT met'}\n`);
  mkdirSync(flags['output-dir']!, { recursive: true });
  const file = path.join(flags['output-dir']!, `synthesize-${settings.documents}-documents.json`);
  writeFileSync(file, `${JSON.stringify({ settings, results }, null, 2)}\n`);
  log(`wrote ${file}`);
} finally {
  rmSync(workDirectory, { recursive: true, force: true });
}
