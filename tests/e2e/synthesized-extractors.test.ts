import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelClient, parseRecordSchema, runSynthesizedExtraction, type DocumentSource, type RecordSchema } from '../../core/index.ts';
import { QuickJsCodeSandbox } from '../../node/runtime/code-sandbox/quickjs-code-sandbox.ts';
import { hashText } from '../../node/runtime/hash-text.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { OpenAiLanguageModel } from '../../node/runtime/openai-language-model.ts';
import { SragStore } from '../../node/duckdb/store/srag-store.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { requestedAttributesPerDocument } from '../helpers/requested-attributes.ts';
import { runSragInProcess } from '../helpers/run-srag-in-process.ts';
import { runSrag } from '../helpers/run-srag.ts';
import { codeLoopMarker, codeMisreadMarker } from '../helpers/llm-stand-in/respond-synthesize-extractors.ts';
import { carListingSchema, generateTemplatedCorpus, type TemplatedDocument } from '../helpers/templated-corpus.ts';

// 16 listings: the run picks 8 spread over them to write and check extractors (listings 2, 4, …, 16;
// samples 2, 6, 10, the rest held out) and reads the other 8 by code. Listings 8 (held out) and 11
// (read by code) have three-word contact names; listing 5, read by code, carries the marker a
// faulty function loops on.
const directory = mkdtempSync(path.join(os.tmpdir(), 'srag-synthesize-'));
const documents = generateTemplatedCorpus(path.join(directory, 'corpus'), 16, { threeWordContacts: [7, 10], extraLines: { 4: codeLoopMarker } });
const gold = readFileSync(path.join(directory, 'corpus', 'gold', 'records.jsonl'), 'utf8').trim().split('\n')
  .map((line) => JSON.parse(line) as { document: string; values: Record<string, { value: unknown }> });
const schema: RecordSchema = parseRecordSchema(carListingSchema, 'schema.json');
const prompts = loadPromptLibrary();
// A call's time limit is wall-clock time: a second, as by default, so that a suite run on a loaded
// machine does not stop a function that reads a line (two of these tests wait for it on purpose).
const sandbox = new QuickJsCodeSandbox({ timeMs: 1_000, memoryBytes: 4 * 1024 * 1024, stackBytes: 128 * 1024, outputCharacters: 10_000 }, 2_000);
let standIn: LlmStandIn;
const stores: SragStore[] = [];

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: [path.join(directory, 'corpus')] });
});

afterAll(async () => {
  for (const store of stores) store.close();
  await sandbox.close();
  await standIn?.close();
  rmSync(directory, { recursive: true, force: true });
});

function sources(list: readonly TemplatedDocument[]): DocumentSource[] {
  return list.map((document) => ({ source: document.path, label: path.basename(document.path), read: async () => readFileSync(document.path, 'utf8') }));
}

/** One ingest with --synthesize into table `cars` of the database `name`, as `srag ingest` runs it. */
async function ingest(name: string, list: readonly TemplatedDocument[], { concurrency, recheckEvery }: { concurrency?: number; recheckEvery?: number } = {}) {
  let store = stores.find((candidate) => candidate.path.endsWith(`${name}.duckdb`));
  if (!store) {
    store = await SragStore.open(path.join(directory, `${name}.duckdb`));
    stores.push(store);
  }
  await store.registerTable('cars', schema);
  const extractionStore = store.extractionStore('cars', schema);
  const languageModel = new OpenAiLanguageModel({ baseURL: standIn.url, apiKey: 'test-not-a-key', model: 'srag-stand-in', timeoutMilliseconds: 30_000 });
  const client = new ModelClient({ languageModel, cache: extractionStore.responseCache, sleep: (milliseconds) => wait(milliseconds), maxConcurrency: 4, retry: { maxRetries: 0 }, hashText });
  const fallbacks: Array<{ document: string; attribute: string; reason: string }> = [];
  const result = await runSynthesizedExtraction({
    // One document per call, so that the requests each document costs can be counted.
    client, prompts, schema, documents: sources(list), store: extractionStore, hashText, batchSize: 1, concurrency,
    synthesis: { sandbox, extractorStore: store.extractorStore('cars'), onFallback: (fallback) => fallbacks.push(fallback), recheckEvery },
  });
  return { ...result, fallbacks, store };
}

/** The table's rows as gold writes them, by document file name. */
async function tableRows(store: SragStore): Promise<Record<string, Record<string, unknown>>> {
  const columns = schema.attributes.map((attribute) => (attribute.kind === 'date' ? `strftime("${attribute.name}", '%Y-%m-%d') AS "${attribute.name}"` : `"${attribute.name}"`));
  const rows = (await store.connection.runAndReadAll(`SELECT _source, ${columns.join(', ')} FROM cars ORDER BY _source`)).getRowObjectsJS();
  return Object.fromEntries(rows.map(({ _source, ...values }) => [path.basename(String(_source)), Object.fromEntries(Object.entries(values).map(([key, value]) => [key, typeof value === 'bigint' ? Number(value) : value]))]));
}

function goldRows(count: number): Record<string, Record<string, unknown>> {
  return Object.fromEntries(gold.slice(0, count).map((record) => [path.basename(record.document), Object.fromEntries(Object.entries(record.values).map(([key, cell]) => [key, cell.value]))]));
}

describe('srag ingest --synthesize', () => {
  it('reads every attribute of a templated corpus by code once each function agrees with the model on every held-out document, with the same table', async () => {
    standIn.reset();
    const { summary, synthesis, store } = await ingest('careful', documents);
    expect(synthesis.mode).toBe('synthesized');
    expect(synthesis.extractors.map((extractor) => [extractor.attribute, extractor.status, extractor.reason])).toEqual(schema.attributes.map((attribute) => [attribute.name, 'accepted', null]));
    expect(synthesis.checkedDocuments).toBe(8);
    expect(summary).toMatchObject({ total: 16, done: 16, failed: 0 });
    // The model extracted the 8 check documents and wrote the functions; code read the other 8 whole.
    expect(requestedAttributesPerDocument(standIn.requests)).toHaveLength(8);
    expect(standIn.countByKind()['synthesize-extractors']).toBe(1);
    // About one in 50 documents code reads is drawn for the model to read too: none of these 8.
    expect(synthesis).toMatchObject({ recheckedDocuments: 0, readAgain: 0 });
    expect(synthesis.valuesFromCode).toEqual(Object.fromEntries(schema.attributes.map((attribute) => [attribute.name, 8])));
    expect(await tableRows(store)).toEqual(goldRows(16));
    const [evidence] = (await store.connection.runAndReadAll("SELECT quote, status, reason FROM srag_evidence WHERE table_name = 'cars' AND source LIKE '%listing-001.md' AND attribute = 'price_eur'")).getRowsJS();
    expect(evidence).toEqual([expect.stringMatching(/^- Price: €[\d,]+$/), 'supported', expect.stringContaining('synthesized extractor')]);
  });

  it('reuses the stored extractors on a later run: a new document costs no model call', async () => {
    const more = generateTemplatedCorpus(path.join(directory, 'more'), 17, { threeWordContacts: [7, 10], extraLines: { 4: codeLoopMarker } }).slice(16);
    standIn.reset();
    const { synthesis, summary } = await ingest('careful', [...documents, ...more]);
    expect(synthesis.mode).toBe('reused');
    expect(synthesis.extractors.map((extractor) => extractor.attribute)).toEqual(schema.attributes.map((attribute) => attribute.name));
    expect(summary).toMatchObject({ done: 1, unchanged: 16 });
    expect(standIn.requests).toHaveLength(0);
  });

  it('does not use a function that disagrees with the model on one held-out document; only that attribute is asked of the model', async () => {
    standIn.reset();
    standIn.setOptions({ extractorSlips: ['contact_name'] });
    try {
      const { synthesis, store } = await ingest('slip', documents);
      const contact = synthesis.extractors.find((extractor) => extractor.attribute === 'contact_name')!;
      expect(contact).toMatchObject({ status: 'rejected', reason: expect.stringMatching(/^read "\S+ \S+" in listing-008\.md, where the model read "\S+ \S+ \S+"$/) });
      expect(synthesis.extractors.filter((extractor) => extractor.status === 'accepted')).toHaveLength(schema.attributes.length - 1);
      const extractions = requestedAttributesPerDocument(standIn.requests);
      expect(extractions.map((attributes) => attributes.length)).toEqual([...Array(8).fill(11), ...Array(8).fill(1)]);
      expect(extractions.at(-1)).toEqual(['contact_name']);
      expect(synthesis.valuesFromCode.contact_name).toBeUndefined();
      expect(await tableRows(store)).toEqual(goldRows(16));
    } finally {
      standIn.setOptions({ extractorSlips: [] });
    }
  });

  it('sends a value to the model when its quote sits unlike on every checked document: a wrong function the held-out documents did not expose', async () => {
    standIn.reset();
    standIn.setOptions({ extractorSlips: ['contact_name'] });
    try {
      // Without listing 8, no checked document has a three-word name: the two-word function passes the check.
      const { synthesis, store, fallbacks } = await ingest('unexposed-slip', documents.filter((_, index) => index !== 7));
      expect(synthesis.extractors.find((extractor) => extractor.attribute === 'contact_name')).toMatchObject({ status: 'accepted', quoteBoundaries: ['line|line'] });
      expect(fallbacks).toEqual([{
        document: 'listing-011.md', attribute: 'contact_name',
        reason: expect.stringMatching(/^its quote "Contact: \S+ \S+" sits in the text unlike on the checked documents \(after a line boundary, before a space, not after a line boundary, before a line boundary\)$/),
      }]);
      const expected = goldRows(16);
      delete expected['listing-008.md'];
      expect(await tableRows(store)).toEqual(expected);
    } finally {
      standIn.setOptions({ extractorSlips: [] });
    }
  });

  it('stops an endless loop, a memory bomb and code reaching for the host with a message per attribute, and the model extracts those attributes', async () => {
    standIn.reset();
    standIn.setOptions({ extractorFaults: { year: 'endless-loop', mileage_km: 'memory-bomb', price_eur: 'reach-host', model: 'loop-on-marker' } });
    try {
      const { synthesis, store, fallbacks, summary } = await ingest('faults', documents);
      const reasons = Object.fromEntries(synthesis.extractors.map((extractor) => [extractor.attribute, extractor.reason]));
      expect(reasons.year).toBe('on listing-002.md: stopped after 1000 ms (the time limit per call)');
      expect(reasons.mileage_km).toBe('on listing-002.md: stopped at 4 MiB (the memory limit)');
      expect(reasons.price_eur).toBe("on listing-002.md: ReferenceError: 'process' is not defined");
      // The model's function loops only on listing 5, which no check saw: it is used, and fails there alone.
      expect(reasons.model).toBeNull();
      expect(fallbacks).toEqual([{ document: 'listing-005.md', attribute: 'model', reason: 'stopped after 1000 ms (the time limit per call)' }]);
      expect(summary).toMatchObject({ done: 16, failed: 0 });
      expect(synthesis.valuesFromCode.model).toBe(7);
      expect(await tableRows(store)).toEqual(goldRows(16));
    } finally {
      standIn.setOptions({ extractorFaults: {} });
    }
  });

  it('runs a function that counts its calls afresh on every document: it reads each as it read the checked ones, and nothing wrong reaches the table', async () => {
    // Issue 42: with the runtime kept per function, such a function agreed on the 8 checked documents and read other values after them, all `supported`.
    standIn.reset();
    standIn.setOptions({ extractorFaults: { model: 'stateful-counter', dealer_city: 'stateful-counter' } });
    try {
      const { synthesis, store, summary } = await ingest('stateful', documents);
expect(synthesis.extractors.filter((extractor) => extractor.status === 'accepted').map((extractor) => extractor.attribute)).toEqual(schema.attributes.map((attribute) => attribute.name));
      expect(synthesis.valuesFromCode).toMatchObject({ model: 8, dealer_city: 8 });
      expect(summary).toMatchObject({ done: 16, failed: 0 });
      expect(await tableRows(store)).toEqual(goldRows(16));
    } finally {
      standIn.setOptions({ extractorFaults: {} });
    }
  });

  it('has the model read a sample of the documents code reads: a function misreading a variant no checked document shows is rejected, and the values it read are read again', async () => {
    // The same listings (and gold), but every listing code reads (the odd ones) carries the variant from listing 3 on; about one in three drawn for the model.
    const misread = generateTemplatedCorpus(path.join(directory, 'misread'), 16, { threeWordContacts: [7, 10], extraLines: Object.fromEntries([2, 4, 6, 8, 10, 12, 14].map((index) => [index, codeMisreadMarker])) });
    standIn.reset();
    standIn.setOptions({ extractorFaults: { model: 'misread-unchecked' } });
    try {
      const { synthesis, store, summary } = await ingest('misread', misread, { concurrency: 1, recheckEvery: 3 });
      expect(summary).toMatchObject({ done: 16, failed: 0 });
      expect(await tableRows(store)).toEqual(goldRows(16));
      expect(synthesis.extractors.find((extractor) => extractor.attribute === 'model')).toMatchObject({
        status: 'rejected', reason: expect.stringMatching(/^read "\w+" in listing-\d+\.md, where the model read "[\w ]+" \(a re-check during the run\)$/),
      });
      expect(synthesis.readAgain).toBeGreaterThan(0);
      // The rejection is kept: a later run does not use the function again.
      expect((await store.extractorStore('cars').load()).find((extractor) => extractor.attribute === 'model')?.status).toBe('rejected');
    } finally {
      standIn.setOptions({ extractorFaults: {} });
    }
  });

  it('srag ingest --synthesize says which attributes came from code and why the others did not, and srag why says a value came from code', async () => {
    standIn.reset();
    standIn.setOptions({ extractorSlips: ['contact_name'] });
    try {
      const corpus = path.join(directory, 'corpus');
      const database = path.join(directory, 'cli.duckdb');
      const environment = { OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000' };
      const ingestRun = await runSrag(['ingest', path.join(corpus, 'docs'), '--schema', path.join(corpus, 'schema.json'), '--db', database, '--table', 'cars', '--synthesize'], { environment });
      expect(ingestRun.stderr).not.toMatch(/error/i);
      expect(ingestRun.status).toBe(0);
      expect(ingestRun.stdout).toContain('cars: 16 done, 0 failed');
      expect(ingestRun.stdout).toContain('synthesized extractors checked on 8 documents: 10 of 11 attributes from code (make, model, year, mileage_km, price_eur, fuel_type, previous_owners, full_service_history, listed_date, dealer_city); 80 values read by code in this run');
      expect(ingestRun.stdout).toMatch(/^  contact_name: by the model \(read "\S+ \S+" in \S*listing-008\.md, where the model read "\S+ \S+ \S+"\)$/m);
      const why = await runSragInProcess(['why', 'listing-001.md', 'price_eur', '--db', database]);
      expect(why.status).toBe(0);
      expect(why.stdout).toMatch(/^synthesized extractor returned: €[\d,]+$/m);
      expect(why.stdout).toContain('reason: read by a synthesized extractor');
    } finally {
      standIn.setOptions({ extractorSlips: [] });
    }
  });
});
