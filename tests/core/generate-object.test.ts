import { describe, expect, it } from 'vitest';
import {
  generateObject,
  LanguageModelError,
  ModelClient,
  ModelOutputInvalidError,
  type CachedResponse,
  type LanguageModelRequest,
  type ObjectValidator,
  type ResponseCache,
} from '../../core/index.ts';
import { createRecordingLanguageModel, type ScriptedReply } from '../helpers/recording-language-model.ts';
import { caught } from '../helpers/caught.ts';

class MemoryCache implements ResponseCache {
  readonly entries = new Map<string, CachedResponse>();
  async get(key: string) {
    return this.entries.get(key);
  }
  async set(key: string, response: CachedResponse) {
    this.entries.set(key, response);
  }
}

const request: LanguageModelRequest = {
  messages: [
    { role: 'system', content: 'Reply with {"stars": <integer 1-5>}.' },
    { role: 'user', content: 'The Ritz has five stars.' },
  ],
  outputSchema: { name: 'stars', schema: { type: 'object' } },
};

/** Accepts `{ stars: 1..5 }`. */
const validateStars: ObjectValidator<number> = (value) => {
  const stars = (value as { stars?: unknown } | null)?.stars;
  if (typeof stars !== 'number' || !Number.isInteger(stars) || stars < 1 || stars > 5) {
    return { problems: [`stars must be an integer from 1 to 5, got ${JSON.stringify(stars)}`] };
  }
  return { value: stars };
};

function setUp(replies: ScriptedReply | ScriptedReply[], cache?: ResponseCache) {
  const model = createRecordingLanguageModel(replies);
  const client = new ModelClient({ languageModel: model.languageModel, cache, sleep: async () => {} });
  return { ...model, client };
}


describe('generateObject parsing', () => {
  it('parses a bare JSON reply', async () => {
    const { client } = setUp('{"stars": 5}');
    const result = await generateObject({ client, request, validate: validateStars, step: 'test' });
    expect(result.value).toBe(5);
    expect(result.cached).toBe(false);
  });

  it('parses a ```json fence inside prose', async () => {
    const { client } = setUp('Here is the record:\n```json\n{"stars": 4}\n```\nHope this helps.');
    const result = await generateObject({ client, request, validate: validateStars, step: 'test' });
    expect(result.value).toBe(4);
  });

  it('parses a JSON object followed by chatter', async () => {
    const { client } = setUp('{"stars": 3, "note": "a {brace} in a string"} Let me know if you need more!');
    const result = await generateObject({ client, request, validate: validateStars, step: 'test' });
    expect(result.value).toBe(3);
  });
});

describe('generateObject unparseable replies', () => {
  it('asks again with the same messages when the reply is truncated JSON', async () => {
    const { client, requests } = setUp(['{"stars": ', '{"sta', '{"stars": 2}']);
    const result = await generateObject({ client, request, validate: validateStars, step: 'test' });
    expect(result.value).toBe(2);
    expect(requests).toHaveLength(3);
    for (const sent of requests) expect(sent.messages).toEqual(request.messages);
  });

  it('gives up after two repeats of an unparseable reply', async () => {
    const { client, requests } = setUp('{"stars": ');
    const error = await caught(generateObject({ client, request, validate: validateStars, step: 'reading stars' }));
    expect(error).toBeInstanceOf(ModelOutputInvalidError);
    expect((error as ModelOutputInvalidError).text).toBe('{"stars": ');
    expect((error as ModelOutputInvalidError).message).toContain('reading stars');
    expect(requests).toHaveLength(3);
  });

  it('never caches an unparseable reply', async () => {
    const cache = new MemoryCache();
    const { client, requests } = setUp(['{"stars": ', '{"stars": 1}'], cache);
    await generateObject({ client, request, validate: validateStars, step: 'test' });
    expect(requests).toHaveLength(2);
    expect([...cache.entries.values()].map((entry) => entry.text)).toEqual(['{"stars": 1}']);
  });

  it('does not repeat a request that failed at the endpoint as if its reply were unparseable', async () => {
    const { client, requests } = setUp(new LanguageModelError({ message: 'bad key', status: 401, retryable: false }));
    const error = await caught(generateObject({ client, request, validate: validateStars, step: 'test' }));
    expect(LanguageModelError.isInstance(error) && (error as LanguageModelError).status).toBe(401);
    expect(requests).toHaveLength(1);
  });
});

describe('generateObject re-ask on validation problems', () => {
  it('re-asks once with the original messages, the previous reply and the problems listed', async () => {
    const { client, requests } = setUp(['{"stars": 7}', '{"stars": 5}']);
    const result = await generateObject({ client, request, validate: validateStars, step: 'test' });
    expect(result.value).toBe(5);
    expect(requests).toHaveLength(2);
    const reAsk = requests[1]!.messages;
    expect(reAsk.slice(0, 2)).toEqual(request.messages);
    expect(reAsk[2]).toEqual({ role: 'assistant', content: '{"stars": 7}' });
    expect(reAsk[3]!.role).toBe('user');
    expect(reAsk[3]!.content.startsWith('Your previous answer had validation errors:')).toBe(true);
    expect(reAsk[3]!.content).toContain('stars must be an integer from 1 to 5, got 7');
    expect(reAsk).toHaveLength(4);
    expect(requests[1]!.outputSchema).toEqual(request.outputSchema);
  });

  it('throws ModelOutputInvalidError with the raw reply and the problems when the re-ask fails too', async () => {
    const { client, requests } = setUp(['{"stars": 7}', 'Sure! {"stars": 0}']);
    const error = await caught(generateObject({ client, request, validate: validateStars, step: 'test' }));
    expect(error).toBeInstanceOf(ModelOutputInvalidError);
    const invalid = error as ModelOutputInvalidError;
    expect(invalid.code).toBe('MODEL_OUTPUT_INVALID');
    expect(invalid.text).toBe('Sure! {"stars": 0}');
    expect(invalid.problems).toEqual(['stars must be an integer from 1 to 5, got 0']);
    expect(requests).toHaveLength(2);
  });

  it('checks the re-asked reply with validateAfterReAsk', async () => {
    const { client } = setUp(['{"stars": 7}', '{"stars": 9}']);
    const lenient: ObjectValidator<number> = (value) => ({ value: Math.min(5, (value as { stars: number }).stars) });
    const result = await generateObject({ client, request, validate: validateStars, validateAfterReAsk: lenient, step: 'test' });
    expect(result.value).toBe(5);
  });

  it('sums the usage of the first call and the re-ask', async () => {
    const { client, requests } = setUp(['{"stars": 7}', '{"stars": 5}']);
    const result = await generateObject({ client, request, validate: validateStars, step: 'test' });
    const promptTokens = requests.reduce((sum, sent) => sum + Math.ceil(sent.messages.reduce((chars, message) => chars + message.content.length, 0) / 4), 0);
    expect(result.usage).toEqual({ promptTokens, completionTokens: 3 + 3 });
  });

  it('does not cache a re-ask that fails too, so that a retry of its document asks the model again', async () => {
    const cache = new MemoryCache();
    const first = setUp(['{"stars": 7}', '{"stars": 9}'], cache);
    expect(await caught(generateObject({ client: first.client, request, validate: validateStars, step: 'test' }))).toBeInstanceOf(ModelOutputInvalidError);
    expect([...cache.entries.values()].map((entry) => entry.text)).toEqual(['{"stars": 7}']);
    const retry = setUp('{"stars": 4}', cache);
    const result = await generateObject({ client: retry.client, request, validate: validateStars, step: 'test' });
    expect(result.value).toBe(4);
    // The first reply replays from the cache; only the re-ask is sent.
    expect(retry.requests).toHaveLength(1);
    expect(retry.requests[0]!.messages).toHaveLength(4);
  });

  it('fails with a re-ask reply that is in the cache already (a Batch API reply) rather than sending it again', async () => {
    const cache = new MemoryCache();
    const first = setUp(['{"stars": 7}', '{"stars": 5}'], cache);
    await generateObject({ client: first.client, request, validate: validateStars, step: 'test' });
    // The collected batch put a failing re-ask reply where the good one was.
    for (const [key, entry] of cache.entries) if (entry.text === '{"stars": 5}') cache.entries.set(key, { ...entry, text: '{"stars": 0}' });
    const collected = setUp('{"stars": 3}', cache);
    const error = await caught(generateObject({ client: collected.client, request, validate: validateStars, step: 'test' }));
    expect((error as ModelOutputInvalidError).problems).toEqual(['stars must be an integer from 1 to 5, got 0']);
    expect(collected.requests).toHaveLength(0);
  });

  it('replays both the invalid reply and the re-ask from the cache on a rerun, spending nothing', async () => {
    const cache = new MemoryCache();
    const first = setUp(['{"stars": 7}', '{"stars": 5}'], cache);
    await generateObject({ client: first.client, request, validate: validateStars, step: 'test' });
    const second = setUp('{"stars": 1}', cache);
    const result = await generateObject({ client: second.client, request, validate: validateStars, step: 'test' });
    expect(result).toEqual({ value: 5, usage: { promptTokens: 0, completionTokens: 0 }, cached: true });
    expect(second.requests).toHaveLength(0);
  });
});
