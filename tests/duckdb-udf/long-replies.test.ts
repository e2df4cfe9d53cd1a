import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelClient, parseRecordSchema, runExtraction, type DocumentSource } from '../../core/index.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { OpenAiLanguageModel } from '../../node/runtime/openai-language-model.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { memoryExtractionStore } from '../helpers/memory-extraction-store.ts';

/**
 * A model writing without end: the stand-in's `endless_reply` runs a reply's first quote on to 50
 * MB. Read whole, three such replies took srag to 1.8 GB and 43 s and left a 230 MB database
 * (issue 42). The transport stops at its bound; the document fails alone, with the reason.
 */

const corpus = 'examples/hotels';
const schema = parseRecordSchema(JSON.parse(readFileSync(join(corpus, 'schema.json'), 'utf8')));
const documents: DocumentSource[] = readFileSync(join(corpus, 'gold/records.jsonl'), 'utf8').trim().split('\n').slice(0, 3).map((line) => {
  const source = join(corpus, (JSON.parse(line) as { document: string }).document);
  return { source, label: source, read: async () => readFileSync(source, 'utf8') };
});
let standIn: LlmStandIn;

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: [corpus] });
});
afterAll(async () => {
  await standIn?.close();
});

describe('a reply longer than the bound', () => {
  it('fails its document alone with the reason, is not asked again, and stores nothing of it', async () => {
    const { store, records, log } = memoryExtractionStore();
    const languageModel = new OpenAiLanguageModel({ baseURL: standIn.url, model: 'stand-in', timeoutMilliseconds: 60_000, maxReplyBytes: 1024 * 1024 });
    const client = new ModelClient({ languageModel, cache: store.responseCache, sleep: async () => {}, retry: { maxRetries: 6 } });
    standIn.reset();
    standIn.failNext('endless_reply', 1);
    const summary = await runExtraction({ client, prompts: loadPromptLibrary(), schema, documents, store, batchSize: 1, concurrency: 1 });
    expect(summary).toMatchObject({ done: 2, failed: 1 });
    expect(log.get(documents[0]!.source)).toMatchObject({
      status: 'failed',
      error: `the model endpoint ${standIn.url} sent a reply too long to read: the reply is longer than 1 MiB, the most read of one reply`,
    });
    expect(records.has(documents[0]!.source)).toBe(false);
    // One request for the faulted document (not retried), one for each of the others.
    expect(standIn.requests).toHaveLength(3);
  });
});
