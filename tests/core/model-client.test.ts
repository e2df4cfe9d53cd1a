import { describe, expect, it } from 'vitest';
import {
  LanguageModelError,
  contentHash,
  ModelClient,
  SragError,
  type CachedResponse,
  type LanguageModel,
  type LanguageModelRequest,
  type LanguageModelResponse,
  type ResponseCache,
} from '../../core/index.ts';
import { hashText, hashTexts } from '../../node/runtime/hash-text.ts';
import { createRecordingLanguageModel } from '../helpers/recording-language-model.ts';
import { caught } from '../helpers/caught.ts';

/** These tests retry nothing that needs a real wait. */
const noWait = async () => {};

/** A Map-backed cache that also counts writes. */
class MemoryCache implements ResponseCache {
  readonly entries = new Map<string, CachedResponse>();
  async get(key: string): Promise<CachedResponse | undefined> {
    return this.entries.get(key);
  }
  async set(key: string, response: CachedResponse): Promise<void> {
    this.entries.set(key, response);
  }
}

/** A sleep that records the delays it was asked for and returns at once. */
function recordingSleep() {
  const delays: number[] = [];
  return { delays, sleep: async (milliseconds: number) => { delays.push(milliseconds); } };
}

const rateLimited = (retryAfterSeconds?: number) =>
  new LanguageModelError({ message: 'rate limited', status: 429, retryable: true, retryAfterSeconds });
const serverError = () => new LanguageModelError({ message: 'server error', status: 500, retryable: true });
const timedOut = () => new LanguageModelError({ message: 'timed out', retryable: true });
const unauthorized = () => new LanguageModelError({ message: 'bad key', status: 401, retryable: false });

const question: LanguageModelRequest = { messages: [{ role: 'user', content: 'How many hotels?' }] };
const identity = (response: LanguageModelResponse) => response;


describe('ModelClient retries', () => {
  it('retries retryable errors (429, 500, timeout) and returns the reply that finally arrives', async () => {
    const { languageModel, requests } = createRecordingLanguageModel([rateLimited(), serverError(), timedOut(), 'fine']);
    const { sleep, delays } = recordingSleep();
    const client = new ModelClient({ languageModel, sleep, random: () => 0.5, retry: { maxRetries: 3 } });
    const response = await client.generate(question, identity);
    expect(response.text).toBe('fine');
    expect(requests).toHaveLength(4);
    expect(delays).toHaveLength(3);
  });

  it('tells retry listeners the attempt, the wait and the reason before each wait, until they stop listening', async () => {
    const { languageModel } = createRecordingLanguageModel([rateLimited(4), timedOut(), serverError(), 'fine']);
    const client = new ModelClient({ languageModel, sleep: noWait, random: () => 1, retry: { maxRetries: 6, baseDelayMs: 500 } });
    const notices: string[] = [];
    const stop = client.onRetry((notice) => {
      notices.push(`${notice.model} ${notice.attempt}/${notice.maxRetries} ${notice.delayMilliseconds} ${notice.reason}`);
      if (notice.attempt === 2) stop();
    });
    await client.generate(question, identity);
    expect(notices).toEqual(['stand-in-model 1/6 4000 429', 'stand-in-model 2/6 1000 request failed']);
  });

  it('gives up after maxRetries further attempts and throws the last error', async () => {
    const { languageModel, requests } = createRecordingLanguageModel(serverError());
    const { sleep } = recordingSleep();
    const client = new ModelClient({ languageModel, sleep, random: () => 0, retry: { maxRetries: 2 } });
    const error = await caught(client.generate(question, identity));
    expect(LanguageModelError.isInstance(error)).toBe(true);
    expect((error as LanguageModelError).status).toBe(500);
    expect(requests).toHaveLength(3);
  });

  it('does not retry a non-retryable error such as 401', async () => {
    const { languageModel, requests } = createRecordingLanguageModel([unauthorized(), 'never reached']);
    const { sleep, delays } = recordingSleep();
    const client = new ModelClient({ languageModel, sleep, retry: { maxRetries: 5 } });
    const error = await caught(client.generate(question, identity));
    expect((error as LanguageModelError).status).toBe(401);
    expect(requests).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  it('does not retry an error that is not a LanguageModelError', async () => {
    const { languageModel, requests } = createRecordingLanguageModel([new TypeError('bug'), 'never reached']);
    const client = new ModelClient({ languageModel, sleep: recordingSleep().sleep });
    await expect(client.generate(question, identity)).rejects.toThrow(TypeError);
    expect(requests).toHaveLength(1);
  });

  it('waits exactly the Retry-After time when the endpoint gives one', async () => {
    const { languageModel } = createRecordingLanguageModel([rateLimited(1), 'fine']);
    const { sleep, delays } = recordingSleep();
    const client = new ModelClient({ languageModel, sleep, random: () => 0, retry: { baseDelayMs: 50, maxDelayMs: 60_000 } });
    await client.generate(question, identity);
    expect(delays).toEqual([1000]);
  });

  it('backs off exponentially from half the ceiling when the jitter draws 0, capped at maxDelayMs', async () => {
    const { languageModel } = createRecordingLanguageModel([...Array.from({ length: 6 }, serverError), 'fine']);
    const { sleep, delays } = recordingSleep();
    const client = new ModelClient({ languageModel, sleep, random: () => 0, retry: { maxRetries: 6, baseDelayMs: 100, maxDelayMs: 1000 } });
    await client.generate(question, identity);
    // ceilings 100, 200, 400, 800, 1000 (capped), 1000
    expect(delays).toEqual([50, 100, 200, 400, 500, 500]);
  });

  it('backs off up to the full ceiling when the jitter draws close to 1', async () => {
    const { languageModel } = createRecordingLanguageModel([...Array.from({ length: 5 }, serverError), 'fine']);
    const { sleep, delays } = recordingSleep();
    const client = new ModelClient({ languageModel, sleep, random: () => 0.999_999, retry: { maxRetries: 6, baseDelayMs: 100, maxDelayMs: 1000 } });
    await client.generate(question, identity);
    expect(delays.map(Math.round)).toEqual([100, 200, 400, 800, 1000]);
  });

  it('keeps every jittered delay within [ceiling/2, ceiling] of its attempt', async () => {
    const draws = [0.1, 0.9, 0.3, 0.7, 0.5];
    let next = 0;
    const { languageModel } = createRecordingLanguageModel([...Array.from({ length: 5 }, rateLimited), 'fine']);
    const { sleep, delays } = recordingSleep();
    const client = new ModelClient({ languageModel, sleep, random: () => draws[next++ % draws.length]!, retry: { maxRetries: 6, baseDelayMs: 200, maxDelayMs: 2000 } });
    await client.generate(question, identity);
    const ceilings = [200, 400, 800, 1600, 2000];
    expect(delays).toHaveLength(5);
    delays.forEach((delay, attempt) => {
      expect(delay).toBeGreaterThanOrEqual(ceilings[attempt]! / 2);
      expect(delay).toBeLessThanOrEqual(ceilings[attempt]!);
    });
    expect(delays[1]).toBeCloseTo(400 / 2 + (0.9 * 400) / 2);
  });

  it('stops retrying with code CANCELLED once the abort signal fires', async () => {
    const controller = new AbortController();
    const { languageModel, requests } = createRecordingLanguageModel([
      () => {
        controller.abort();
        return serverError();
      },
      'never reached',
    ]);
    const client = new ModelClient({ languageModel, sleep: recordingSleep().sleep, abortSignal: controller.signal, retry: { maxRetries: 5 } });
    const error = await caught(client.generate(question, identity));
    expect(SragError.isInstance(error) && error.code).toBe('CANCELLED');
    expect(requests).toHaveLength(1);
  });

  it('makes no model call at all when the abort signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const { languageModel, requests } = createRecordingLanguageModel('fine');
    const client = new ModelClient({ languageModel, sleep: noWait, abortSignal: controller.signal });
    const error = await caught(client.generate(question, identity));
    expect(SragError.isInstance(error) && error.code).toBe('CANCELLED');
    expect(requests).toHaveLength(0);
  });

  it('hands the client abort signal to the model with each request', async () => {
    const controller = new AbortController();
    const { languageModel, requests } = createRecordingLanguageModel('fine');
    const client = new ModelClient({ languageModel, sleep: noWait, abortSignal: controller.signal });
    await client.generate(question, identity);
    expect(requests[0]!.abortSignal).toBe(controller.signal);
  });
});

describe('ModelClient concurrency', () => {
  it('keeps at most maxConcurrency requests in flight at once', async () => {
    let inFlight = 0;
    let mostInFlight = 0;
    let calls = 0;
    const languageModel: LanguageModel = {
      modelId: 'slow-model',
      async doGenerate(request) {
        calls += 1;
        inFlight += 1;
        mostInFlight = Math.max(mostInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return { text: request.messages[0]!.content, model: 'slow-model', usage: { promptTokens: 1, completionTokens: 1 } };
      },
    };
    const client = new ModelClient({ languageModel, sleep: noWait, maxConcurrency: 3 });
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, index) => client.generate({ messages: [{ role: 'user', content: `q${index}` }] }, (response) => response.text)),
    );
    expect(replies).toEqual(Array.from({ length: 10 }, (_, index) => `q${index}`));
    expect(calls).toBe(10);
    expect(mostInFlight).toBe(3);
  });
});

describe('ModelClient cache', () => {
  it('answers a second identical request from the cache without calling the model, marked cached', async () => {
    const { languageModel, requests } = createRecordingLanguageModel(['first reply', 'second reply']);
    const client = new ModelClient({ languageModel, sleep: noWait, cache: new MemoryCache() });
    const seen: Array<boolean | undefined> = [];
    const accept = (response: LanguageModelResponse) => {
      seen.push(response.cached);
      return response.text;
    };
    expect(await client.generate(question, accept)).toBe('first reply');
    expect(await client.generate(question, accept)).toBe('first reply');
    expect(requests).toHaveLength(1);
    expect(seen[0]).not.toBe(true);
    expect(seen[1]).toBe(true);
  });

  it('does not cache a reply that accept rejected, and propagates the rejection', async () => {
    const { languageModel, requests } = createRecordingLanguageModel(['{"truncated', '{"ok": true}']);
    const cache = new MemoryCache();
    const client = new ModelClient({ languageModel, sleep: noWait, cache });
    const parse = (response: LanguageModelResponse) => JSON.parse(response.text) as unknown;
    await expect(client.generate(question, parse)).rejects.toThrow(SyntaxError);
    expect(cache.entries.size).toBe(0);
    expect(await client.generate(question, parse)).toEqual({ ok: true });
    expect(requests).toHaveLength(2);
    expect(cache.entries.size).toBe(1);
  });

  it('refetches when a cached reply no longer passes accept', async () => {
    const { languageModel, requests } = createRecordingLanguageModel(['old', 'new']);
    const client = new ModelClient({ languageModel, sleep: noWait, cache: new MemoryCache() });
    await client.generate(question, identity);
    const text = await client.generate(question, (response) => {
      if (response.text === 'old') throw new Error('stale');
      return response.text;
    });
    expect(text).toBe('new');
    expect(requests).toHaveLength(2);
    expect(client.usage.total().cacheHits).toBe(0);
  });

  it('calls the model again when bypassCache is set', async () => {
    const { languageModel, requests } = createRecordingLanguageModel(['first', 'second']);
    const client = new ModelClient({ languageModel, sleep: noWait, cache: new MemoryCache() });
    await client.generate(question, identity);
    const again = await client.generate(question, identity, { bypassCache: true });
    expect(again.text).toBe('second');
    expect(requests).toHaveLength(2);
  });

  it('keys the cache on model, messages and output schema', () => {
    const { languageModel } = createRecordingLanguageModel('x', 'default-model');
    const client = new ModelClient({ languageModel, sleep: noWait });
    const base: LanguageModelRequest = {
      messages: [{ role: 'system', content: 'rules' }, { role: 'user', content: 'doc' }],
      outputSchema: { name: 'record', schema: { type: 'object' } },
    };
    const key = client.cacheKey(base);
    expect(client.cacheKey({ ...base, model: 'other-model' })).not.toBe(key);
    expect(client.cacheKey({ ...base, messages: [{ role: 'system', content: 'rules' }, { role: 'user', content: 'doc 2' }] })).not.toBe(key);
    expect(client.cacheKey({ ...base, messages: [{ role: 'user', content: 'rules' }, { role: 'user', content: 'doc' }] })).not.toBe(key);
    expect(client.cacheKey({ ...base, outputSchema: { name: 'record', schema: { type: 'object', required: [] } } })).not.toBe(key);
    expect(client.cacheKey({ ...base, outputSchema: undefined })).not.toBe(key);
  });

  it('keys a reply on the endpoint that gave it too: another endpoint misses it, and the request key stays the earlier whole key', () => {
    const { languageModel } = createRecordingLanguageModel('x', 'default-model');
    const stand = new ModelClient({ languageModel: { ...languageModel, endpoint: 'http://127.0.0.1:4000/v1' }, sleep: noWait });
    const openai = new ModelClient({ languageModel: { ...languageModel, endpoint: 'https://api.openai.com/v1' }, sleep: noWait });
    const unconfigured = new ModelClient({ languageModel, sleep: noWait });
    const messages = [{ role: 'user' as const, content: 'doc' }];
    const requestKey = contentHash(JSON.stringify(['default-model', messages, null]));
    expect(stand.requestKey({ messages })).toBe(requestKey);
    expect(stand.cacheKey({ messages })).toBe(contentHash(`${JSON.stringify('http://127.0.0.1:4000/v1')},${requestKey}`));
    expect(openai.cacheKey({ messages })).not.toBe(stand.cacheKey({ messages }));
    expect(unconfigured.cacheKey({ messages })).toBe(requestKey);
  });

  it('serves a reply only to the endpoint that gave it, and with no endpoint configured any endpoint\'s reply through findForAnyEndpoint', async () => {
    const byRequest = new Map<string, CachedResponse>();
    class EndpointCache extends MemoryCache {
      override async set(key: string, response: CachedResponse): Promise<void> {
        await super.set(key, response);
        if (response.requestKey) byRequest.set(response.requestKey, response);
      }
      async findForAnyEndpoint(requestKey: string): Promise<CachedResponse | undefined> {
        return byRequest.get(requestKey);
      }
    }
    const cache = new EndpointCache();
    const standIn = createRecordingLanguageModel('stand-in answer');
    await new ModelClient({ languageModel: { ...standIn.languageModel, endpoint: 'http://127.0.0.1:4000/v1' }, cache, sleep: noWait }).generate(question, identity);
    const [stored] = [...cache.entries.values()];
    expect(stored).toMatchObject({ endpoint: 'http://127.0.0.1:4000/v1', requestKey: expect.stringMatching(/^[0-9a-f]{64}$/) });

    const real = createRecordingLanguageModel('real answer');
    const answered = await new ModelClient({ languageModel: { ...real.languageModel, endpoint: 'https://api.openai.com/v1' }, cache, sleep: noWait }).generate(question, identity);
    expect(answered).toMatchObject({ text: 'real answer' });
    expect(real.requests).toHaveLength(1);

    const offline = createRecordingLanguageModel(new Error('no endpoint'));
    const fromCache = await new ModelClient({ languageModel: offline.languageModel, cache, sleep: noWait }).generate(question, identity);
    expect(fromCache).toMatchObject({ cached: true });
    expect(offline.requests).toHaveLength(0);
  });

  it('keeps the cache key the hash of [model, messages, output schema] as JSON, so replies cached by earlier versions still match', () => {
    const { languageModel } = createRecordingLanguageModel('x', 'default-model');
    const client = new ModelClient({ languageModel, sleep: noWait });
    const outputSchema = { name: 'record', schema: { type: 'object', properties: { ['__proto__']: { type: 'string' }, note: { type: ['string', 'null'] } } } };
    const messages = [{ role: 'system' as const, content: 'rules "quoted"\n' }, { role: 'user' as const, content: 'doc \u2028 é' }];
    const expected = contentHash(JSON.stringify(['default-model', messages, outputSchema]));
    expect(client.cacheKey({ messages, outputSchema })).toBe(expected);
    // The schema's text is kept per object: asking again with the same object gives the same key.
    expect(client.cacheKey({ messages, outputSchema })).toBe(expected);
    expect(client.cacheKey({ messages })).toBe(contentHash(JSON.stringify(['default-model', messages, null])));
  });

  it('keeps the cache key byte for byte with a native hash that takes the key\'s texts one by one, as the earlier whole-text key', () => {
    const { languageModel } = createRecordingLanguageModel('x', 'default-model');
    const hashed: number[] = [];
    const native = new ModelClient({ languageModel, sleep: noWait, hashText, hashTexts: (texts) => { hashed.push(texts.length); return hashTexts(texts); } });
    const outputSchema = { name: 'record', schema: { type: 'object', properties: { note: { type: ['string', 'null'], description: 'a \u2014 b' } } } };
    const requests: LanguageModelRequest[] = [
      { messages: [{ role: 'system', content: 'rules "quoted"\n' }, { role: 'user', content: 'doc \u2028 é \ud83d\ude00 \ud800' }], outputSchema },
      { messages: [{ role: 'user', content: 'How many hotels?' }], model: 'other "model"' },
      { messages: [{ role: 'system', content: 'x'.repeat(20_000) }, { role: 'user', content: '\u00e9'.repeat(9_000) }], outputSchema },
    ];
    for (const request of requests) {
      const earlier = hashText(JSON.stringify([request.model ?? 'default-model', request.messages, request.outputSchema ?? null]));
      expect(native.requestKey(request)).toBe(earlier);
      expect(native.requestKey(request)).toBe(contentHash(JSON.stringify([request.model ?? 'default-model', request.messages, request.outputSchema ?? null])));
    }
    // In pieces: the model, each message, the schema and the punctuation between them.
    expect(hashed).toEqual([9, 9, 7, 7, 9, 9]);
  });

  it('keeps the cache key independent of anything but model, messages and output schema', () => {
    const { languageModel } = createRecordingLanguageModel('x', 'default-model');
    const client = new ModelClient({ languageModel, sleep: noWait });
    const other = new ModelClient({ languageModel, sleep: noWait, maxConcurrency: 1, retry: { maxRetries: 0 } });
    const base: LanguageModelRequest = { messages: [{ role: 'user', content: 'doc' }] };
    const key = client.cacheKey(base);
    expect(client.cacheKey({ ...base, abortSignal: new AbortController().signal })).toBe(key);
    expect(client.cacheKey({ ...base, model: 'default-model' })).toBe(key);
    expect(other.cacheKey(base)).toBe(key);
    expect(client.cacheKey({ messages: [{ role: 'user', content: 'doc' }] })).toBe(key);
  });
});

describe('ModelClient and a setting the endpoint refuses', () => {
  const refused = (message = "Unsupported value: 'temperature' does not support 0 with this model.") =>
    new LanguageModelError({ message: `the model endpoint answered 400: ${message}`, status: 400, retryable: false, hint: 'check SRAG_MODEL' });

  it('turns the second alike 4xx before any answer into a setting error, and then fails calls without sending them', async () => {
    const { languageModel, requests } = createRecordingLanguageModel(refused());
    const client = new ModelClient({ languageModel, sleep: noWait });
    const first = await caught(client.generate(question, identity));
    expect((first as LanguageModelError).setting).toBe(false);
    const second = await caught(client.generate({ messages: [{ role: 'user', content: 'another document' }] }, identity));
    expect(second).toMatchObject({ setting: true, hint: 'check SRAG_MODEL', message: expect.stringContaining('refused the first requests alike, answering none') });
    const third = await caught(client.generate({ messages: [{ role: 'user', content: 'a third' }] }, identity));
    expect(third).toBe(second);
    expect(requests).toHaveLength(2);
  });

  it('judges nothing a setting once the endpoint answered, nor refusals about a document, nor refusals that differ', async () => {
    const answeredFirst = createRecordingLanguageModel(['fine', refused(), refused()]);
    const afterAnswer = new ModelClient({ languageModel: answeredFirst.languageModel, sleep: noWait });
    await afterAnswer.generate(question, identity);
    await caught(afterAnswer.generate(question, identity));
    expect(await caught(afterAnswer.generate(question, identity))).toMatchObject({ setting: false });
    expect(afterAnswer.endpointAnswered).toBe(true);

    const tooLong = new LanguageModelError({ message: 'maximum context length', status: 400, retryable: false, aboutDocument: true });
    const documents = new ModelClient({ languageModel: createRecordingLanguageModel(tooLong).languageModel, sleep: noWait });
    await caught(documents.generate(question, identity));
    expect(await caught(documents.generate(question, identity))).toMatchObject({ setting: false });

    const differing = createRecordingLanguageModel([refused('the first reason'), refused('quite another reason')]);
    const apart = new ModelClient({ languageModel: differing.languageModel, sleep: noWait });
    await caught(apart.generate(question, identity));
    expect(await caught(apart.generate(question, identity))).toMatchObject({ setting: false });
  });

  it('judges chat calls alone: embeddings or batch calls an endpoint refuses leave its chat requests alone', async () => {
    const { languageModel, requests } = createRecordingLanguageModel('fine');
    const client = new ModelClient({ languageModel, sleep: noWait });
    for (let index = 0; index < 3; index += 1) await caught(client.call('embedding-model', async () => { throw refused('Unknown name "dimensions"'); }));
    expect((await client.generate(question, identity)).text).toBe('fine');
    expect(requests).toHaveLength(1);
  });

  it('counts a reply read and found wanting (a 200 whose model refused) as an answer', async () => {
    const refusal = new LanguageModelError({ message: 'the model refused: no', status: 200, retryable: false, aboutDocument: true });
    const { languageModel } = createRecordingLanguageModel([refusal, refused(), refused()]);
    const client = new ModelClient({ languageModel, sleep: noWait });
    await caught(client.generate(question, identity));
    await caught(client.generate(question, identity));
    expect(await caught(client.generate(question, identity))).toMatchObject({ setting: false });
  });
});

describe('ModelClient usage totals', () => {
  it('counts calls, cache hits, retries and tokens per model', async () => {
    const { languageModel } = createRecordingLanguageModel([rateLimited(), 'abcdefgh', 'abcd'], 'main-model');
    const client = new ModelClient({ languageModel, cache: new MemoryCache(), sleep: recordingSleep().sleep, random: () => 0 });
    await client.generate(question, identity); // one retry, then 'abcdefgh'
    await client.generate(question, identity); // cache hit
    await client.generate({ ...question, model: 'cheap-model' }, identity); // 'abcd' from another model

    const promptTokens = Math.ceil(question.messages[0]!.content.length / 4);
    expect(client.usage.models()).toEqual([
      { model: 'main-model', calls: 1, cacheHits: 1, retries: 1, promptTokens, cachedPromptTokens: 0, completionTokens: 2, reasoningTokens: 0, callsWithoutUsage: 0 },
      { model: 'cheap-model', calls: 1, cacheHits: 0, retries: 0, promptTokens, cachedPromptTokens: 0, completionTokens: 1, reasoningTokens: 0, callsWithoutUsage: 0 },
    ]);
    expect(client.usage.total()).toEqual({ calls: 2, cacheHits: 1, retries: 1, promptTokens: 2 * promptTokens, cachedPromptTokens: 0, completionTokens: 3, reasoningTokens: 0, callsWithoutUsage: 0 });
  });

  it('sends the default model name with the request when the request names none', async () => {
    const { languageModel, requests } = createRecordingLanguageModel('ok', 'main-model');
    const client = new ModelClient({ languageModel, sleep: noWait });
    await client.generate(question, identity);
    expect(requests[0]!.model).toBe('main-model');
  });
});
