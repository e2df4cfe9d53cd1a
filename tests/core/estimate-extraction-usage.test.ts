import { describe, expect, it } from 'vitest';
import { approximateTokenCount, estimateExtractionRun, estimateExtractionUsage, extractRecordBatch, findModelPrice, defaultModelPrices, ModelClient, parseRecordSchema, readModelPrices, runExtraction, SragError, tokenCeiling, usageCost, type LanguageModelRequest } from '../../core/index.ts';
import { planBatchCalls } from '../../core/extraction/plan-batch-calls.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { caught } from '../helpers/caught.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';
import { memoryExtractionStore } from '../helpers/memory-extraction-store.ts';

const schema = parseRecordSchema({
  title: 'Hotels',
  properties: {
    hotel_name: { type: 'string', description: 'Name of the hotel as written on the page.' },
    stars: { type: 'integer', description: 'Official star rating.' },
  },
});
const prompts = loadPromptLibrary();

/** A careful model: each hotel the message names with its stars, nulls for a part that names none; a batch gets a record per document. */
function answer(request: LanguageModelRequest): string {
  const record = (text: string) => {
    const match = /The (\w+) Hotel has (\d) stars\./.exec(text);
    if (!match) return { hotel_name: { value: null, quote: null }, stars: { value: null, quote: null } };
    return { hotel_name: { value: `${match[1]} Hotel`, quote: `The ${match[1]} Hotel` }, stars: { value: Number(match[2]), quote: `has ${match[2]} stars` } };
  };
  const user = request.messages[1]!.content;
  const batch = [...user.matchAll(/^<document id="([^"]+)" boundary="([^"]+)">\n([\s\S]*?)\n<\/document boundary="\2">$/gm)];
  return JSON.stringify(batch.length ? { records: batch.map((match) => ({ id: match[1], ...record(match[3]!) })) } : record(user));
}

describe('estimateExtractionUsage', () => {
  it('counts exactly the calls and prompt tokens extractRecordBatch then sends: short documents together, a long one alone in parts', async () => {
    const short = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].map((name, index) => `The ${name} Hotel has ${index + 1} stars.`);
    const long = Array.from({ length: 300 }, (_, index) => `Paragraph ${index}: the Foxtrot Hotel's rooms, garden and lobby, described at length.`).join('\n\n');
    const texts = [short[0]!, long, ...short.slice(1)];
    const options = { prompts, schema, texts, withEvidence: true, maxInputTokens: 3_000, maxDocumentsPerCall: 3, countTokens: approximateTokenCount };
    const estimate = estimateExtractionUsage(options);

    const { languageModel, requests } = createRecordingLanguageModel(answer);
    await extractRecordBatch({ ...options, client: new ModelClient({ languageModel, sleep: async () => {}, retry: { maxRetries: 0 } }), documents: texts.map((text, index) => ({ text, documentName: `${index}.txt` })) });
    const documentsPerCall = requests.map((request) => request.messages[1]!.content.match(/^<document id="/gm)?.length ?? 1);
    // The long document first (parts of one), then the five short ones, three and two to a call.
    expect(documentsPerCall.slice(-2)).toEqual([3, 2]);
    expect(documentsPerCall.slice(0, -2).every((count) => count === 1)).toBe(true);
    expect(estimate.calls).toBe(requests.length);
    expect(estimate.calls).toBeGreaterThan(3);
    const sent = requests.reduce((sum, request) => sum + request.messages.reduce((tokens, message) => tokens + approximateTokenCount(message.content), 0), 0);
    expect(estimate.promptTokens).toBe(sent);
  });
  it('counts the shared calls of a run without evidence (--no-evidence), as the run then sends them', async () => {
    const names = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel', 'India', 'Juliet'];
    const documents = names.map((name, index) => ({ source: `${name.toLowerCase()}.txt`, read: async () => `The ${name} Hotel has ${(index % 5) + 1} stars.` }));
    const estimate = await estimateExtractionRun({ prompts, schema, documents, store: memoryExtractionStore().store, withEvidence: false });

    const unquoted = (request: LanguageModelRequest) => JSON.stringify(JSON.parse(answer(request), (key, value: unknown) =>
      (value !== null && typeof value === 'object' && 'quote' in value ? (value as { value?: unknown }).value : value)));
    const { languageModel, requests } = createRecordingLanguageModel(unquoted);
    const summary = await runExtraction({ client: new ModelClient({ languageModel, sleep: async () => {}, retry: { maxRetries: 0 } }), prompts, schema, documents, store: memoryExtractionStore().store, withEvidence: false });
    expect(summary).toMatchObject({ done: 10, failed: 0 });
    expect(requests.map((request) => request.messages[1]!.content.match(/^<document id="/gm)?.length ?? 1)).toEqual([10]);
    expect(estimate).toMatchObject({ toExtract: 10, calls: 1 });
    const sent = requests.reduce((sum, request) => sum + request.messages.reduce((tokens, message) => tokens + approximateTokenCount(message.content), 0), 0);
    expect(estimate.promptTokens).toBe(sent);
  });
});

describe('planBatchCalls', () => {
  it('plans documents sent one per call without counting their tokens (only the instructions), and the estimate still matches what is sent', () => {
    const texts = ['Alpha', 'Bravo', 'Charlie'].map((name, index) => `The ${name} Hotel has ${index + 1} stars.`);
    const counted: string[] = [];
    const countTokens = (text: string) => {
      counted.push(text);
      return approximateTokenCount(text);
    };
    const plan = planBatchCalls({ prompts, schema, texts, withEvidence: true, maxDocumentsPerCall: 1, countTokens });
    expect(plan.calls).toEqual([[0], [1], [2]]);
    expect(counted.filter((text) => texts.some((document) => text.includes(document)))).toEqual([]);
    // Short documents sharing calls fit by their ceilings (their UTF-8 bytes): nothing is counted.
    expect(planBatchCalls({ prompts, schema, texts, withEvidence: true, maxDocumentsPerCall: 3, countTokens }).calls).toEqual([[0, 1, 2]]);
    expect(counted).toEqual([]);
  });

  it('counts tokens where the ceilings do not decide, and packs as it would have by counts alone', () => {
    const short = ['Alpha', 'Bravo', 'Charlie', 'Delta'].map((name, index) => `The ${name} Hotel has ${index + 1} stars.`);
    // Over 1,000 bytes, so possibly a long document: counted, and with the others of the run.
    const longer = `The Echo Hotel has 5 stars. ${'Its rooms look out over the old town. '.repeat(30)}`;
    const texts = [short[0]!, short[1]!, longer, short[2]!, short[3]!];
    const counted: string[] = [];
    const countTokens = (text: string) => {
      counted.push(text);
      return approximateTokenCount(text);
    };
    const plan = planBatchCalls({ prompts, schema, texts, withEvidence: true, maxDocumentsPerCall: 2, countTokens });
    expect(counted).toEqual(expect.arrayContaining(texts));
    // By counts, the longer page is not long (a quarter of its bytes, under twice the instructions): two to a call.
    expect(plan.calls).toEqual([[0, 1], [2, 3], [4]]);
    // A budget the ceilings exceed and the counts do not: the counts decide.
    const tight = planBatchCalls({ prompts, schema, texts: short, withEvidence: true, maxDocumentsPerCall: 4, countTokens, maxInputTokens: approximateTokenCount(plan.system) + 400 });
    expect(tight.calls).toEqual([[0, 1, 2, 3]]);
  });

  it('gives the system message and its ceiling with the plan, one message object for every plan of the same prompt', () => {
    const texts = ['The Alpha Hotel — 4 stars.', 'The Bravo Hotel, Zürich.'];
    for (const maxDocumentsPerCall of [1, 2, 2]) {
      const plan = planBatchCalls({ prompts, schema, texts, withEvidence: true, maxDocumentsPerCall, countTokens: approximateTokenCount });
      expect(plan.systemCeiling).toBe(tokenCeiling(plan.system));
      expect(plan.systemCeiling).toBeGreaterThan(0);
    }
    const without = planBatchCalls({ prompts, schema, texts, withEvidence: false, maxDocumentsPerCall: 2, countTokens: approximateTokenCount });
    expect(without.systemCeiling).toBe(tokenCeiling(without.system));
    // One system message object per prompt, so that its JSON text is written once for a run.
    const again = planBatchCalls({ prompts, schema, texts: ['Other page.'], withEvidence: true, maxDocumentsPerCall: 2, countTokens: approximateTokenCount });
    const first = planBatchCalls({ prompts, schema, texts, withEvidence: true, maxDocumentsPerCall: 2, countTokens: approximateTokenCount });
    expect(again.systemMessage).toBe(first.systemMessage);
    expect(first.systemMessage).toEqual({ role: 'system', content: first.system });
    expect(without.systemMessage).toEqual({ role: 'system', content: without.system });
  });
});

describe('model prices', () => {
  it('prices cached prompt tokens at the cached price and a dated snapshot as its model', () => {
    const price = findModelPrice(defaultModelPrices, 'gpt-4o-mini-2024-07-18')!;
    expect(price).toEqual(defaultModelPrices['gpt-4o-mini']);
    expect(usageCost({ promptTokens: 1_000_000, cachedPromptTokens: 400_000, completionTokens: 100_000 }, price)).toBeCloseTo(0.6 * 0.15 + 0.4 * 0.075 + 0.1 * 0.6, 10);
    expect(findModelPrice(defaultModelPrices, 'house-model-7b')).toBeUndefined();
  });

  it('reads a prices file, refusing an unknown field or a negative price with a line naming the model and the fix', async () => {
    expect(readModelPrices('{"house-model": {"input": 0.2, "output": 0.8}}', 'prices.json')).toEqual({ 'house-model': { input: 0.2, cachedInput: 0.2, output: 0.8 } });
    const unknownField = await caught(Promise.resolve().then(() => readModelPrices('{"house-model": {"input": 0.2, "output": 0.8, "cache": 0.1}}', 'prices.json')));
    expect(SragError.isInstance(unknownField) && unknownField.message).toBe('prices.json "house-model" has an unknown field "cache" (known: input, cached_input, output)');
    const negative = await caught(Promise.resolve().then(() => readModelPrices('{"house-model": {"input": -1, "output": 0.8}}', 'prices.json')));
    expect((negative as SragError).message).toBe('prices.json "house-model".input must be a non-negative number of USD per million tokens, got -1');
    expect((negative as SragError).hint).toMatch(/unset SRAG_PRICES/);
  });
});
