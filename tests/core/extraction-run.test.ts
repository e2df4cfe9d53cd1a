import { describe, expect, it } from 'vitest';
import {
  contentHash, LanguageModelError, ModelClient, parseRecordSchema, runExtraction, SragError, startExtractionRun,
  type CachedResponse, type DocumentSource, type ExtractionStore, type IngestionLogEntry, type LanguageModelRequest, type StoredRecord,
} from '../../core/index.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { caught } from '../helpers/caught.ts';
import { createRecordingLanguageModel, type ScriptedReply } from '../helpers/recording-language-model.ts';

const schema = parseRecordSchema({
  title: 'Hotel',
  properties: {
    hotel_name: { type: 'string', description: 'Name of the hotel as written on the page.' },
    stars: { type: 'integer', description: 'Official star rating.' },
  },
});
const prompts = loadPromptLibrary();

/** A careful model: the hotel named in the document, with its stars; nulls for a text that names none. A batch gets one such record per document. */
function answer(request: LanguageModelRequest): string {
  const user = request.messages.find((message) => message.role === 'user')!.content;
  const record = (text: string) => {
    const match = /The (\w+) Hotel has (\d) stars\./.exec(text);
    if (!match) return { hotel_name: { value: null, quote: null }, stars: { value: null, quote: null } };
    return { hotel_name: { value: `${match[1]} Hotel`, quote: `The ${match[1]} Hotel` }, stars: { value: Number(match[2]), quote: `has ${match[2]} stars` } };
  };
  const batch = [...user.matchAll(/^<document id="([^"]+)" boundary="([^"]+)">\n([\s\S]*?)\n<\/document boundary="\2">$/gm)];
  if (batch.length) return JSON.stringify({ records: batch.map((match) => ({ id: match[1], ...record(match[3]!) })) });
  return JSON.stringify(record(user));
}

function documents(texts: Record<string, string>): DocumentSource[] {
  return Object.entries(texts).map(([name, text]) => ({ source: `/corpus/${name}`, label: name, read: async () => text }));
}

/** An in-memory store that records every call; `failOn` makes the nth save (1-based) fail like a full disk. */
function memoryStore({ log = [] as IngestionLogEntry[], failOn }: { log?: IngestionLogEntry[]; failOn?: number } = {}) {
  const entries = new Map(log.map((entry) => [entry.source, entry]));
  const calls: string[] = [];
  const cache = new Map<string, CachedResponse>();
  let saves = 0;
  let statisticsRefreshed = 0;
  const save = (what: string) => {
    saves += 1;
    if (saves === failOn) throw new Error('IO Error: No space left on device');
    calls.push(what);
  };
  const store: ExtractionStore = {
    logEntries: async () => entries,
    saveRecord: async (record: StoredRecord) => {
      save(`record ${record.source}`);
      entries.set(record.source, { source: record.source, contentHash: record.contentHash, status: 'done', error: null, values: record.values });
    },
    saveLogEntry: async (entry) => {
      save(`${entry.status} ${entry.source}`);
      entries.set(entry.source, { ...entry });
    },
    responseCache: { get: async (key) => cache.get(key), set: async (key, response) => { cache.set(key, response); } },
    refreshStatistics: async () => { statisticsRefreshed += 1; },
  };
  return { store, calls, entries, statistics: () => statisticsRefreshed };
}

function client(replies: ScriptedReply | ScriptedReply[] = answer) {
  const { languageModel, requests } = createRecordingLanguageModel(replies);
  return { client: new ModelClient({ languageModel, retry: { maxRetries: 0 }, sleep: async () => {} }), requests };
}

const hotels = { 'alpha.txt': 'The Alpha Hotel has 2 stars.', 'bravo.txt': 'The Bravo Hotel has 3 stars.', 'charlie.txt': 'The Charlie Hotel has 4 stars.' };

describe('runExtraction', () => {
  it('saves one record per document with its log entry, and refreshes the statistics once', async () => {
    const { store, calls, statistics } = memoryStore();
    const { client: model, requests } = client();
    const summary = await runExtraction({ client: model, prompts, schema, documents: documents(hotels), store });
    // Three short documents share one call by default.
    expect(requests).toHaveLength(1);
    expect(calls.sort()).toEqual(['record /corpus/alpha.txt', 'record /corpus/bravo.txt', 'record /corpus/charlie.txt']);
    expect(summary).toMatchObject({ total: 3, done: 3, withoutValues: 0, unchanged: 0, failed: 0, empty: 0 });
    expect(statistics()).toBe(1);
  });

  it('costs nothing for an unchanged document, and extracts a changed one again', async () => {
    const log: IngestionLogEntry[] = [
      { source: '/corpus/alpha.txt', contentHash: contentHash(hotels['alpha.txt']), status: 'done', error: null },
      { source: '/corpus/bravo.txt', contentHash: contentHash('an older text'), status: 'done', error: null },
    ];
    const { store, calls } = memoryStore({ log });
    const { client: model, requests } = client();
    const summary = await runExtraction({ client: model, prompts, schema, documents: documents(hotels), store });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.messages[1]!.content.match(/<document id=/g)).toHaveLength(2);
    expect(calls.sort()).toEqual(['record /corpus/bravo.txt', 'record /corpus/charlie.txt']);
    expect(summary).toMatchObject({ done: 2, unchanged: 1 });
  });

  it('leaves a document alone that failed before with the same content, saying how to retry, unless retryFailed', async () => {
    const log: IngestionLogEntry[] = [{ source: '/corpus/alpha.txt', contentHash: contentHash(hotels['alpha.txt']), status: 'failed', error: 'the model endpoint answered 500' }];
    const { client: model, requests } = client();
    const skipped = await runExtraction({ client: model, prompts, schema, documents: documents(hotels), store: memoryStore({ log }).store, retryHint: 'rerun with --retry-failed' });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.messages[1]!.content).not.toContain('Alpha');
    expect(skipped.skippedFailed).toBe(1);
    expect(skipped.failures).toEqual([{ source: '/corpus/alpha.txt', label: 'alpha.txt', error: 'the model endpoint answered 500 (failed in an earlier run with the same content; rerun with --retry-failed to try again)' }]);
    const retried = await runExtraction({ client: model, prompts, schema, documents: documents(hotels), store: memoryStore({ log }).store, retryFailed: true });
    expect(retried).toMatchObject({ done: 3, skippedFailed: 0 });
  });

  it('skips empty and whitespace-only documents without a model call, and logs them as empty', async () => {
    const { store, calls, entries } = memoryStore();
    const { client: model, requests } = client();
    const summary = await runExtraction({ client: model, prompts, schema, documents: documents({ ...hotels, 'blank.txt': ' \n\t\n ', 'nothing.md': '', 'tags-only.html': '<html><body> </body></html>' }), store });
    expect(requests).toHaveLength(1);
    expect(summary).toMatchObject({ done: 3, empty: 3, failed: 0 });
    expect(calls.filter((call) => call.startsWith('empty')).sort()).toEqual(['empty /corpus/blank.txt', 'empty /corpus/nothing.md', 'empty /corpus/tags-only.html']);
    // Logged by content: the next run knows them without reading a reply or calling.
    const again = await runExtraction({ client: model, prompts, schema, documents: documents({ 'blank.txt': ' \n\t\n ' }), store: memoryStore({ log: [...entries.values()] }).store });
    expect(again).toMatchObject({ empty: 1, done: 0 });
    expect(requests).toHaveLength(1);
  });

  it('counts records without any value apart, so that a run of nulls does not read as a success', async () => {
    const { store } = memoryStore();
    const { client: model } = client();
    const summary = await runExtraction({ client: model, prompts, schema, documents: documents({ ...hotels, 'menu.txt': 'Soup of the day: tomato.', 'notice.txt': 'The pool is closed on Mondays.' }), store });
    expect(summary).toMatchObject({ done: 5, withoutValues: 2 });
  });

  it('stops at the first store failure: nothing more is saved, no document is marked failed, and the error says what to do', async () => {
    const { store, calls } = memoryStore({ failOn: 2 });
    const { client: model } = client();
    const texts = Object.fromEntries(Array.from({ length: 12 }, (_, index) => [`hotel-${index}.txt`, `The H${index} Hotel has ${(index % 5) + 1} stars.`]));
    // One document per call, so that calls come one after another and the stop shows between them.
    const error = await caught(runExtraction({ client: model, prompts, schema, documents: documents(texts), store, concurrency: 1, batchSize: 1 }));
    expect(SragError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect((error as SragError).message).toBe('the store could not save hotel-1.txt: IO Error: No space left on device');
    expect((error as SragError).hint).toMatch(/run the same extraction again/);
    expect(calls).toEqual(['record /corpus/hotel-0.txt']);
    expect(calls.some((call) => call.startsWith('failed'))).toBe(false);
  });

  it('asks the store to follow a moved document only for one the log does not know, and finds it unchanged after; a failed move stops the run as a store failure', async () => {
    const moved: IngestionLogEntry = { source: '/old/alpha.txt', contentHash: contentHash(hotels['alpha.txt']), status: 'done', error: null };
    const asked: string[] = [];
    const { store, calls } = memoryStore({ log: [{ source: '/corpus/bravo.txt', contentHash: contentHash(hotels['bravo.txt']), status: 'done', error: null }] });
    store.followMoved = async (source, hash) => {
      asked.push(source);
      return hash === moved.contentHash ? { ...moved, source } : undefined;
    };
    const { client: model, requests } = client();
    const summary = await runExtraction({ client: model, prompts, schema, documents: documents(hotels), store });
    // bravo is in the log: not asked; alpha follows its record; charlie, new, is extracted.
    expect(asked.sort()).toEqual(['/corpus/alpha.txt', '/corpus/charlie.txt']);
    expect(summary).toMatchObject({ done: 1, unchanged: 2 });
    expect(calls).toEqual(['record /corpus/charlie.txt']);
    expect(requests[0]!.messages[1]!.content).not.toContain('Alpha');

    const failing = memoryStore();
    failing.store.followMoved = async () => {
      throw new Error('IO Error: No space left on device');
    };
    const error = await caught(runExtraction({ client: model, prompts, schema, documents: documents(hotels), store: failing.store }));
    expect(SragError.isInstance(error) && error.code).toBe('STORE_FAILED');
    expect((error as SragError).message).toBe('the store could not move the record of alpha.txt from the path it was moved from: IO Error: No space left on device');
    expect(failing.calls).toEqual([]);
  });

  it('stops on an error that would fail every document, without marking any', async () => {
    const { store, calls } = memoryStore();
    const { client: model } = client(new LanguageModelError({ message: 'the endpoint refused the API key', status: 401, retryable: false }));
    const error = await caught(runExtraction({ client: model, prompts, schema, documents: documents(hotels), store }));
    expect((error as LanguageModelError).status).toBe(401);
    expect(calls).toEqual([]);
  });

  describe('a setting the endpoint refuses, told from a document it refuses', () => {
    const settingRefusal = () => new LanguageModelError({
      message: "the model endpoint answered 400: Unsupported value: 'temperature' does not support 0 with this model.", status: 400, retryable: false, hint: 'check SRAG_MODEL',
    });
    const tooLong = () => new LanguageModelError({ message: "the model endpoint answered 400: This model's maximum context length is 8192 tokens.", status: 400, retryable: false, aboutDocument: true });

    it('stops at once with the endpoint\'s words when the first requests are refused alike, marks no document, and the next run takes them all without retryFailed', async () => {
      const { store, calls, entries } = memoryStore();
      const refusing = client(settingRefusal());
      const error = await caught(runExtraction({ client: refusing.client, prompts, schema, documents: documents(hotels), store, batchSize: 1, concurrency: 1 }));
      expect(error).toMatchObject({ setting: true, hint: 'check SRAG_MODEL', message: expect.stringContaining("Unsupported value: 'temperature'") });
      // Two requests, not one per document: the second alike refusal is the setting.
      expect(refusing.requests).toHaveLength(2);
      expect(calls).toEqual([]);

      const fixed = client();
      const summary = await runExtraction({ client: fixed.client, prompts, schema, documents: documents(hotels), store, batchSize: 1 });
      expect(summary).toMatchObject({ done: 3, failed: 0, skippedFailed: 0 });
      expect([...entries.values()].map((entry) => entry.status)).toEqual(['done', 'done', 'done']);
    });

    it('stops a batch of documents sharing a call on its second refusal rather than splitting it down to each document', async () => {
      const { store, calls } = memoryStore();
      const many = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`hotel-${index}.txt`, `The H${index} Hotel has 3 stars.`]));
      const refusing = client(settingRefusal());
      const error = await caught(runExtraction({ client: refusing.client, prompts, schema, documents: documents(many), store, concurrency: 1 }));
      expect(error).toMatchObject({ setting: true });
      expect(refusing.requests).toHaveLength(2);
      expect(calls).toEqual([]);
    });

    it('stops a run of one document refused with a request error, leaving it unmarked', async () => {
      const { store, calls } = memoryStore();
      const error = await caught(runExtraction({ client: client(settingRefusal()).client, prompts, schema, documents: documents({ 'alpha.txt': hotels['alpha.txt'] }), store }));
      expect(error).toMatchObject({ setting: true, message: expect.stringContaining('refused every request of the run, answering none') });
      expect(calls).toEqual([]);
    });

    it('fails the document alone that the endpoint refuses for its content (context length), and the others are done', async () => {
      const { store, calls } = memoryStore();
      const model = client((request) => (request.messages.some((message) => message.content.includes('Bravo')) ? tooLong() : answer(request)));
      const summary = await runExtraction({ client: model.client, prompts, schema, documents: documents(hotels), store, batchSize: 1, concurrency: 1 });
      expect(summary).toMatchObject({ done: 2, failed: 1 });
      expect(calls.sort()).toEqual(['failed /corpus/bravo.txt', 'record /corpus/alpha.txt', 'record /corpus/charlie.txt']);
    });

    it('marks a first document\'s request error as its own once the endpoint answers the others', async () => {
      const { store, calls } = memoryStore();
      const model = client((request) => (request.messages.some((message) => message.content.includes('Alpha')) ? settingRefusal() : answer(request)));
      const summary = await runExtraction({ client: model.client, prompts, schema, documents: documents(hotels), store, batchSize: 1, concurrency: 1 });
      expect(summary).toMatchObject({ done: 2, failed: 1 });
      expect(calls).toContain('failed /corpus/alpha.txt');
    });
  });

  it('warns before a document that needs more calls than the threshold, with its estimated calls and tokens', async () => {
    const { store } = memoryStore();
    const { client: model, requests } = client();
    const warnings: string[] = [];
    let requestsWhenWarned = -1;
    const long = Array.from({ length: 400 }, (_, index) => `Paragraph ${index}: the lobby, the garden and the rooms are described at length here.`).join('\n\n');
    await runExtraction({
      client: model, prompts, schema, documents: documents({ 'long.txt': long }), store, maxInputTokens: 1_500, callWarningThreshold: 3,
      onWarning: (line) => {
        warnings.push(line);
        requestsWhenWarned = requests.length;
      },
    });
    expect(requestsWhenWarned).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^long\.txt is long: it needs about \d+ model calls \(~\d+ k prompt tokens\), more than the 3 a document is expected to take$/);
    const estimated = Number(/about (\d+) model calls/.exec(warnings[0]!)![1]);
    expect(Math.abs(estimated - requests.length)).toBeLessThanOrEqual(Math.ceil(requests.length / 4));
  });
});

describe('startExtractionRun', () => {
  it('gives outcomes in document order, however the calls finish', async () => {
    const texts = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`hotel-${index}.txt`, `The H${index} Hotel has ${(index % 5) + 1} stars.`]));
    const { languageModel } = createRecordingLanguageModel(answer);
    const slowFirst: typeof languageModel = {
      modelId: languageModel.modelId,
      doGenerate: async (request) => {
        const user = request.messages.find((message) => message.role === 'user')!.content;
        await new Promise((resolve) => setTimeout(resolve, user.includes('H0 Hotel') ? 60 : 1));
        return languageModel.doGenerate(request);
      },
    };
    const run = startExtractionRun({ client: new ModelClient({ languageModel: slowFirst, sleep: async () => {} }), prompts, schema, documents: documents(texts), store: memoryStore().store, concurrency: 4 });
    const labels: string[] = [];
    for (let next = await run.next(3); ; next = await run.next(3)) {
      expect(next.outcomes.length).toBeLessThanOrEqual(3);
      labels.push(...next.outcomes.map((outcome) => outcome.label));
      if (next.done) break;
    }
    expect(labels).toEqual(Object.keys(texts));
  });

  it('keeps `concurrency` requests at the model while the next documents are read, so a freed slot finds its request ready', async () => {
    const texts = Object.fromEntries(Array.from({ length: 6 }, (_, index) => [`hotel-${index}.txt`, `The H${index} Hotel has ${(index % 5) + 1} stars.`]));
    // Reads and model calls both wait until the test lets them go: what is in flight is counted, not timed.
    const readsAsked: string[] = [];
    const releaseRead = new Map<string, () => void>();
    const held = new Map<string, () => void>();
    let atModel = 0;
    let mostAtModel = 0;
    const { languageModel } = createRecordingLanguageModel(answer);
    const gated: typeof languageModel = {
      modelId: languageModel.modelId,
      doGenerate: async (request) => {
        const hotel = /The (H\d) Hotel/.exec(request.messages.find((message) => message.role === 'user')!.content)![1]!;
        atModel += 1;
        mostAtModel = Math.max(mostAtModel, atModel);
        await new Promise<void>((resolve) => held.set(hotel, resolve));
        atModel -= 1;
        return languageModel.doGenerate(request);
      },
    };
    const sources: DocumentSource[] = Object.entries(texts).map(([name, text]) => ({
      source: `/corpus/${name}`, label: name,
      read: () => new Promise<string>((resolve) => {
        readsAsked.push(name);
        releaseRead.set(name, () => resolve(text));
      }),
    }));
    const settle = async () => {
      for (let turn = 0; turn < 20; turn += 1) await new Promise((resolve) => setImmediate(resolve));
    };
    const run = startExtractionRun({ client: new ModelClient({ languageModel: gated, sleep: async () => {}, maxConcurrency: 8 }), prompts, schema, documents: sources, store: memoryStore().store, concurrency: 2, batchSize: 1 });
    const taken = run.next(6);
    await settle();
    // Two to call the model with, two more read ahead.
    expect(readsAsked).toEqual(['hotel-0.txt', 'hotel-1.txt', 'hotel-2.txt', 'hotel-3.txt']);
    for (const release of releaseRead.values()) release();
    await settle();
    expect([...held.keys()]).toEqual(['H0', 'H1']);
    expect(atModel).toBe(2);
    // The first reply frees a slot: the third document, read already, takes it at once.
    held.get('H0')!();
    await settle();
    expect(atModel).toBe(2);
    expect([...held.keys()]).toEqual(['H0', 'H1', 'H2']);
    for (let round = 0; round < 6; round += 1) {
      for (const release of releaseRead.values()) release();
      for (const release of held.values()) release();
      await settle();
    }
    const outcomes = [];
    for (let next = await taken; ; next = await run.next(6)) {
      outcomes.push(...next.outcomes);
      if (next.done) break;
    }
    expect(outcomes.map((outcome) => [outcome.label, outcome.status])).toEqual(Object.keys(texts).map((name) => [name, 'done']));
    expect(mostAtModel).toBe(2);
  });

  it('sends the first request after reading a few documents, not the whole lookahead', async () => {
    // Reading is the slow part for PDFs (parsed on the thread that sends): 128 documents read
    // before the first call took a second at concurrency 64.
    const texts = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`hotel-${index}.txt`, `The H${index} Hotel has ${(index % 5) + 1} stars.`]));
    let reads = 0;
    let readsBeforeFirstCall: number | undefined;
    const languageModel = {
      modelId: 'stand-in',
      doGenerate: async (request: LanguageModelRequest) => {
        readsBeforeFirstCall ??= reads;
        return { text: answer(request), usage: { promptTokens: 1, completionTokens: 1 }, model: 'stand-in' };
      },
    };
    const counted = documents(texts).map((document) => ({ ...document, read: () => { reads += 1; return document.read(); } }));
    const summary = await runExtraction({
      client: new ModelClient({ languageModel, maxConcurrency: 64, sleep: async () => {} }),
      prompts, schema, documents: counted, store: memoryStore().store, concurrency: 64, batchSize: 1,
    });
    expect(summary.done).toBe(200);
    expect(reads).toBe(200);
    // Twice the concurrency (128) were read before the first call when they were all prepared at once.
    expect(readsBeforeFirstCall).toBeLessThanOrEqual(24);
  });

  it("gives the host's event loop a turn before each read, so a request handed to a socket leaves while the next documents are read", async () => {
    // A socket write happens on the event loop's turn; documents read synchronously give it none.
    const texts = Object.fromEntries(Array.from({ length: 200 }, (_, index) => [`hotel-${index}.txt`, `The H${index} Hotel has ${(index % 5) + 1} stars.`]));
    const readsWhenFirstSent = async (yieldTurn?: () => Promise<void>) => {
      let reads = 0;
      let readsWhenSent: number | undefined;
      const languageModel = {
        modelId: 'stand-in',
        doGenerate: async (request: LanguageModelRequest) => {
          setImmediate(() => { readsWhenSent ??= reads; });
          return { text: answer(request), usage: { promptTokens: 1, completionTokens: 1 }, model: 'stand-in' };
        },
      };
      const counted = documents(texts).map((document) => ({ ...document, read: () => { reads += 1; return document.read(); } }));
      const summary = await runExtraction({
        client: new ModelClient({ languageModel, maxConcurrency: 64, sleep: async () => {} }),
        prompts, schema, documents: counted, store: memoryStore().store, concurrency: 64, batchSize: 1, yieldTurn,
      });
      expect(summary.done).toBe(200);
      return readsWhenSent;
    };
    expect(await readsWhenFirstSent(() => new Promise<void>((resolve) => setImmediate(resolve)))).toBeLessThanOrEqual(24);
    // Without the turn (and with a model that answers at once) the whole run, all 200 documents,
    // was over before the first request's turn came.
    expect(await readsWhenFirstSent()).toBeUndefined();
  });

  it('starts no more than the lookahead past what was taken, so a consumer that stops early pays for little', async () => {
    const texts = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`hotel-${index}.txt`, `The H${index} Hotel has ${(index % 5) + 1} stars.`]));
    const { client: model, requests } = client();
    const run = startExtractionRun({ client: model, prompts, schema, documents: documents(texts), store: memoryStore().store, concurrency: 2, lookahead: 6 });
    const first = await run.next(1);
    expect(first.outcomes).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await run.whenSettled();
    expect(requests.length).toBeLessThanOrEqual(1 + 6);
  });
});
