import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ModelClient, parseRecordSchema, runExtraction, type DocumentSource } from '../../core/index.ts';
import { readRecordReply } from '../../core/extraction/read-record-reply.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { OpenAiLanguageModel } from '../../node/runtime/openai-language-model.ts';
import { startLlmStandIn, type LlmStandIn, type ModelSlip } from '../helpers/llm-stand-in/index.ts';
import { memoryExtractionStore } from '../helpers/memory-extraction-store.ts';

/**
 * A reply that leaves a required property out is no answer for it: read as null it said "the
 * document does not state it" of every such value (issue 42: "60 done, 0 failed", `srag ask`
 * answering "60 do not state it", reruns making no call). It is asked again once; a reply that
 * still leaves it out fails its document, and a retry of the document asks the model again.
 */

const corpus = 'examples/hotels';
const schema = parseRecordSchema(JSON.parse(readFileSync(join(corpus, 'schema.json'), 'utf8')));
const goldRecords = readFileSync(join(corpus, 'gold/records.jsonl'), 'utf8').trim().split('\n').slice(0, 6)
  .map((line) => JSON.parse(line) as { document: string; values: Record<string, { value: unknown }> });
const documents: DocumentSource[] = goldRecords.map((record) => {
  const source = join(corpus, record.document);
  return { source, label: record.document, read: async () => readFileSync(source, 'utf8') };
});
const goldPrice = new Map(goldRecords.map((record) => [join(corpus, record.document), record.values.price_per_night!.value]));
const prompts = loadPromptLibrary();
let standIn: LlmStandIn;

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: [corpus] });
});
afterAll(async () => {
  await standIn?.close();
});
beforeEach(() => {
  standIn.reset();
  standIn.setOptions({ slips: [], slipProperties: [] });
});

/** One run over the six pages, `batchSize` documents per call at most, into `store`. */
function ingest(store: ReturnType<typeof memoryExtractionStore>, { slips, batchSize, retryFailed }: { slips: ModelSlip[]; batchSize: number | 'auto'; retryFailed?: boolean }) {
  standIn.setOptions({ slips, slipProperties: ['price_per_night'] });
  const languageModel = new OpenAiLanguageModel({ baseURL: standIn.url, model: 'stand-in', timeoutMilliseconds: 30_000 });
  const client = new ModelClient({ languageModel, cache: store.store.responseCache, sleep: async () => {}, retry: { maxRetries: 0 } });
  return runExtraction({ client, prompts, schema, documents, store: store.store, batchSize, retryFailed, concurrency: 2 });
}

describe('a reply that leaves a property out', () => {
  it('is a problem before and after the re-ask, named in one line with the fix, never a value the document does not state', () => {
    const reply = { hotel_name: { value: 'Amber Arch Hotel', quote: 'Amber Arch Hotel' } };
    const read = (strict: boolean) => readRecordReply(reply, { schema, documentText: 'Amber Arch Hotel', withEvidence: true, strict });
    const problem = `the reply leaves out ${schema.attributes.length - 1} of its ${schema.attributes.length} properties (${schema.attributes.slice(1, 6).map((attribute) => attribute.name).join(', ')}, and ${schema.attributes.length - 6} more): give every property, null when the document does not state it`;
    expect(read(true)).toEqual({ problems: [problem] });
    expect(read(false)).toEqual({ problems: [problem] });
    const nulls = Object.fromEntries(schema.attributes.map((attribute) => [attribute.name, { value: null, quote: null }]));
    const stated = readRecordReply(nulls, { schema, documentText: 'Amber Arch Hotel', withEvidence: true, strict: false });
    expect('value' in stated && stated.value.evidence.every((evidence) => evidence.status === 'missing')).toBe(true);
  });

  for (const batchSize of [1, 'auto'] as const) {
    const how = batchSize === 1 ? 'alone' : 'in shared calls';
    it(`is asked again, and the answer given then is stored (documents sent ${how})`, async () => {
      const store = memoryExtractionStore();
      const summary = await ingest(store, { slips: ['omit-property'], batchSize });
      expect(summary).toMatchObject({ done: 6, failed: 0 });
      for (const [source, price] of goldPrice) expect([source, store.records.get(source)!.values.price_per_night]).toEqual([source, price]);
      // Each document's first reply left the price out and was asked again once, on its own.
      const reAsks = standIn.requests.filter((request) => (request.body as { messages: unknown[] }).messages.length === 4);
      expect(reAsks).toHaveLength(6);
    });

    it(`fails its document with the reason when the re-ask leaves it out too, and a retry asks again (documents sent ${how})`, async () => {
      const store = memoryExtractionStore();
      const summary = await ingest(store, { slips: ['omit-property-always'], batchSize });
      expect(summary).toMatchObject({ done: 0, failed: 6 });
      expect(store.records.size).toBe(0);
      for (const entry of store.log.values()) {
        expect(entry).toMatchObject({
          status: 'failed',
          error: "extracting the record: the model's reply could not be used: the reply leaves out property price_per_night: give every property, null when the document does not state it",
        });
      }
      // A rerun leaves failed documents alone unless asked; a retry calls the model, which now answers.
      standIn.reset();
      expect(await ingest(store, { slips: [], batchSize })).toMatchObject({ done: 0, failed: 0, skippedFailed: 6 });
      expect(standIn.requests).toHaveLength(0);
      const retried = await ingest(store, { slips: [], batchSize, retryFailed: true });
      expect(retried).toMatchObject({ done: 6, failed: 0 });
      expect(standIn.requests.length).toBeGreaterThan(0);
      for (const [source, price] of goldPrice) expect([source, store.records.get(source)!.values.price_per_night]).toEqual([source, price]);
    });
  }
});
