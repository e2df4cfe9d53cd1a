import { describe, expect, it } from 'vitest';
import { contentHash, LanguageModelError, ModelClient, SragError, type LanguageModelResponse } from '../../core/index.ts';
import {
  chatCompletionRequest, OpenAiChatModel, OpenAiTextEmbedder, OpenAiWire, TransportFailure,
  type EndpointHints, type HttpRequest, type HttpResponse, type TransportFailureKind,
} from '../../openai-wire/index.ts';
import { caught } from '../helpers/caught.ts';

const hints: EndpointHints = {
  refusedKey: 'check the key',
  unknownModel: (model) => `no model ${model}`,
  unreachable: 'check the address',
};

type Reply = HttpResponse | TransportFailure | ((request: HttpRequest) => HttpResponse | TransportFailure);

/** A transport that records requests and answers from a script (the last reply repeating). */
function scriptedTransport(replies: Reply[]) {
  const requests: HttpRequest[] = [];
  const transport = async (request: HttpRequest): Promise<HttpResponse> => {
    requests.push(request);
    const entry = replies[Math.min(requests.length - 1, replies.length - 1)]!;
    const reply = typeof entry === 'function' ? entry(request) : entry;
    if (TransportFailure.isInstance(reply)) throw reply;
    return reply;
  };
  return { transport, requests };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse => ({ status, headers, body: JSON.stringify(body) });
const completion = (content: string) => json(200, { model: 'served-model', choices: [{ message: { content } }], usage: { prompt_tokens: 11, completion_tokens: 7 } });
const errorReply = (status: number, message: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) => json(status, { error: { message, ...extra } }, headers);

function chatModel(replies: Reply[], endpoint: { baseUrl?: string; apiKey?: string } = {}) {
  const { transport, requests } = scriptedTransport(replies);
  const wire = new OpenAiWire({ endpoint: { baseUrl: endpoint.baseUrl ?? 'https://models.example/v1', apiKey: endpoint.apiKey ?? 'test-key-1234', hints }, transport });
  return { model: new OpenAiChatModel(wire, 'chosen-model'), requests };
}

const request = { messages: [{ role: 'user' as const, content: 'How many hotels?' }], outputSchema: { name: 'record', schema: { type: 'object' } } };
const noWait = async () => {};

describe('the chat request', () => {
  it('posts to chat/completions with the key only in the Authorization header, keeping a query of the base URL after the path', async () => {
    const { model, requests } = chatModel([completion('{"a":1}')], { baseUrl: 'https://models.example/v1/?api-version=2024-06-01', apiKey: 'key-abc-123' });
    const response = await model.doGenerate(request);
    expect(response).toEqual({ text: '{"a":1}', model: 'served-model', usage: { promptTokens: 11, completionTokens: 7 } });
    expect(requests[0]).toMatchObject({
      url: 'https://models.example/v1/chat/completions?api-version=2024-06-01',
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer key-abc-123' },
    });
    expect(JSON.parse(requests[0]!.body!)).toEqual({
      model: 'chosen-model',
      messages: request.messages,
      temperature: 0,
      response_format: { type: 'json_schema', json_schema: { name: 'record', schema: { type: 'object' }, strict: true } },
    });
  });

  it('sends no Authorization header to a server that needs no key', async () => {
    const { transport, requests } = scriptedTransport([completion('ok')]);
    const wire = new OpenAiWire({ endpoint: { baseUrl: 'http://localhost:11434/v1', hints }, transport });
    await new OpenAiChatModel(wire, 'llama').doGenerate({ messages: request.messages });
    expect(requests[0]!.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(JSON.parse(requests[0]!.body!)).not.toHaveProperty('response_format');
  });

  it('falls back from json_schema to json_object to plain text when the endpoint refuses each format, and keeps the mode that worked', async () => {
    const refuse = (request: HttpRequest) => {
      const format = JSON.parse(request.body!).response_format?.type;
      return format ? errorReply(400, `response_format of type '${format}' is not supported by this model`) : completion('{"a":1}');
    };
    const { model, requests } = chatModel([refuse]);
    await model.doGenerate(request);
    await model.doGenerate(request);
    expect(requests.map((sent) => JSON.parse(sent.body!).response_format?.type ?? 'none')).toEqual(['json_schema', 'json_object', 'none', 'none']);
  });

  it('sends the text JSON.stringify writes of the body, with the messages\' text the cache key hashed in it', async () => {
    const messages = [{ role: 'system' as const, content: 'rules "quoted" \u2014 \\ \n\u2028' }, { role: 'user' as const, content: 'doc \ud83d\ude00 é \ud800 lone' }];
    const outputSchema = { name: 'record', schema: { type: 'object' } };
    const { model, requests } = chatModel([completion('{"a":1}')]);
    const key = new ModelClient({ languageModel: model, sleep: noWait }).requestKey({ messages, outputSchema });
    await model.doGenerate({ messages, outputSchema });
    expect(requests[0]!.body).toBe(JSON.stringify(chatCompletionRequest('chosen-model', { messages, outputSchema }, 'json_schema')));
    // In pieces too, for a transport that sends bytes: the messages' text among them as the key hashed it,
    // and the whole text joined only when a transport reads it.
    expect(typeof Object.getOwnPropertyDescriptor(requests[0], 'body')?.get).toBe('function');
    expect(requests[0]!.bodyPieces!.join('')).toBe(requests[0]!.body);
    expect(requests[0]!.bodyPieces).toContain(JSON.stringify(messages[1]));
    expect(key).toBe(contentHash(JSON.stringify(['chosen-model', messages, outputSchema])));
  });

  it('reports a 400 that is not about the format as an error, without falling back', async () => {
    const { model, requests } = chatModel([errorReply(400, 'messages: too long')]);
    const error = await caught(model.doGenerate(request));
    expect(LanguageModelError.isInstance(error) && error.message).toBe('the model endpoint answered 400: messages: too long');
    expect(requests).toHaveLength(1);
  });
});

describe('errors of the endpoint', () => {
  it.each([[408, true], [409, true], [429, true], [500, true], [503, true], [400, false], [401, false], [403, false], [404, false], [422, false]])(
    'marks status %i as retryable: %s', async (status, retryable) => {
      const { model } = chatModel([errorReply(status, 'nope')]);
      const error = await caught(model.doGenerate(request));
      expect(LanguageModelError.isInstance(error) && { status: error.status, retryable: error.retryable, reason: error.reason }).toEqual({ status, retryable, reason: String(status) });
    });

  it('names the fix for a refused key and an unknown model in the runtime\'s words', async () => {
    for (const [status, hint] of [[401, 'check the key'], [403, 'check the key'], [404, 'no model chosen-model']] as const) {
      const error = await caught(chatModel([errorReply(status, 'no')]).model.doGenerate(request));
      expect((error as SragError).hint).toBe(hint);
    }
  });

  it('reads Retry-After in seconds and as an HTTP date, and OpenAI\'s retry-after-ms', async () => {
    const retryAfter = async (headers: Record<string, string>) => ((await caught(chatModel([errorReply(429, 'slow down', {}, headers)]).model.doGenerate(request))) as LanguageModelError).retryAfterSeconds;
    expect(await retryAfter({ 'retry-after': '7' })).toBe(7);
    expect(await retryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' })).toBe(1.5);
    const inTwentySeconds = new Date(Date.now() + 20_000).toUTCString();
    expect(await retryAfter({ 'retry-after': inTwentySeconds })).toBeGreaterThan(15);
    expect(await retryAfter({})).toBeUndefined();
  });

  it('turns a 429 whose body says insufficient_quota into QUOTA_EXCEEDED, which the model client does not retry', async () => {
    const { model, requests } = chatModel([errorReply(429, 'You exceeded your current quota, please check your plan and billing details.', { type: 'insufficient_quota', code: 'insufficient_quota' })]);
    const client = new ModelClient({ languageModel: model, sleep: noWait, retry: { maxRetries: 6 } });
    const error = await caught(client.generate(request, (response: LanguageModelResponse) => response));
    expect(SragError.isInstance(error) && { code: error.code, message: error.message }).toEqual({
      code: 'QUOTA_EXCEEDED',
      message: 'the model provider\'s quota is used up: You exceeded your current quota, please check your plan and billing details.',
    });
    expect(requests).toHaveLength(1);
  });

  it('still retries a 429 that is a rate limit', async () => {
    const { model, requests } = chatModel([errorReply(429, 'Rate limit reached', { type: 'requests', code: 'rate_limit_exceeded' }), completion('ok')]);
    const client = new ModelClient({ languageModel: model, sleep: noWait });
    expect((await client.generate(request, (response) => response)).text).toBe('ok');
    expect(requests).toHaveLength(2);
  });

  it('keeps the first line of a server\'s message, at most 300 characters', async () => {
    const { model } = chatModel([{ status: 502, headers: {}, body: `<html>${'x'.repeat(1000)}\n<body>stack trace</body>` }]);
    const error = await caught(model.doGenerate(request)) as Error;
    expect(error.message).toBe(`the model endpoint answered 502: <html>${'x'.repeat(294)}`);
  });

  it('says a success without JSON may be retried (a cut connection looks like this)', async () => {
    const { model } = chatModel([{ status: 200, headers: {}, body: '{"choices": [' }]);
    const error = await caught(model.doGenerate(request));
    expect(LanguageModelError.isInstance(error) && { message: error.message, retryable: error.retryable }).toEqual({ message: 'the model endpoint https://models.example/v1 sent a reply that is not JSON', retryable: true });
  });
});

describe('requests that get no response', () => {
  const failing = (kind: TransportFailureKind, message = 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9') => chatModel([new TransportFailure(kind, message)]);

  it('does not retry an address where nothing answers, and says what to check', async () => {
    const { model, requests } = failing('unreachable');
    const client = new ModelClient({ languageModel: model, sleep: noWait, retry: { maxRetries: 6 } });
    const error = await caught(client.generate(request, (response) => response));
    expect(LanguageModelError.isInstance(error) && { message: error.message, hint: error.hint, unreachable: error.unreachable, retryable: error.retryable })
      .toEqual({ message: 'cannot reach the model endpoint https://models.example/v1', hint: 'check the address', unreachable: true, retryable: false });
    expect(requests).toHaveLength(1);
  });

  it.each([['timeout', 'timeout'], ['interrupted', 'connection lost'], ['throttled', 'throttled']] as const)('retries a %s, reported as "%s"', async (kind, reason) => {
    const { model } = failing(kind, 'socket hang up');
    const error = await caught(model.doGenerate(request));
    expect(LanguageModelError.isInstance(error) && { retryable: error.retryable, reason: error.reason }).toEqual({ retryable: true, reason });
  });

  it('turns a cancelled request into CANCELLED', async () => {
    const error = await caught(failing('cancelled', 'cancelled').model.doGenerate(request));
    expect(SragError.isInstance(error) && error.code).toBe('CANCELLED');
  });
});

describe('secrets in what the wire says', () => {
  const endpoint = { baseUrl: 'https://proxy-user:proxy-pass-99@models.example/v1?api-key=QUERYSECRET42', apiKey: 'plain-key-7f3a9c' };
  const leaks = (text: string) => ['proxy-user', 'proxy-pass-99', 'QUERYSECRET42', 'plain-key-7f3a9c', '7f3a9c'].filter((secret) => text.includes(secret));

  it('shows the base URL without its credentials and query values', async () => {
    const error = await caught(chatModel([new TransportFailure('unreachable', 'ENOTFOUND')], endpoint).model.doGenerate(request)) as Error;
    expect(error.message).toBe('cannot reach the model endpoint https://[redacted]@models.example/v1?api-key=[redacted]');
  });

  it('removes an echo of the key in any shape: verbatim, partly masked, or inside an echoed URL', async () => {
    const echoes = [
      'Incorrect API key provided: plain-key-7f3a9c.',
      'Incorrect API key provided: plai**********3a9c.',
      'forbidden for https://models.example/v1/chat/completions?api-key=QUERYSECRET42',
      'user proxy-user with password proxy-pass-99 is locked',
    ];
    for (const echo of echoes) {
      const error = await caught(chatModel([errorReply(401, echo)], endpoint).model.doGenerate(request)) as Error;
      expect({ echo, leaks: leaks(error.message) }).toEqual({ echo, leaks: [] });
      expect(error.message).toContain('[redacted]');
    }
  });
});

describe('embeddings', () => {
  it('returns one vector per text in input order, whatever order the reply lists them in', async () => {
    const { transport, requests } = scriptedTransport([json(200, { data: [{ index: 1, embedding: [0, 1] }, { index: 0, embedding: [1, 0] }] })]);
    const embedder = new OpenAiTextEmbedder(new OpenAiWire({ endpoint: { baseUrl: 'http://localhost:8000/v1', hints }, transport }), 'embedding-model');
    expect(await embedder.embed(['first', 'second'])).toEqual([[1, 0], [0, 1]]);
    expect(requests[0]!.url).toBe('http://localhost:8000/v1/embeddings');
    expect(JSON.parse(requests[0]!.body!)).toEqual({ model: 'embedding-model', input: ['first', 'second'] });
  });

  it('refuses a reply with fewer vectors than texts', async () => {
    const { transport } = scriptedTransport([json(200, { data: [{ index: 0, embedding: [1] }] })]);
    const embedder = new OpenAiTextEmbedder(new OpenAiWire({ endpoint: { baseUrl: 'http://localhost:8000/v1', hints }, transport }), 'embedding-model');
    const error = await caught(embedder.embed(['a', 'b']));
    expect(LanguageModelError.isInstance(error) && error.message).toBe('the model endpoint http://localhost:8000/v1 sent an unusable reply: asked for 2 embeddings, got 1');
  });

  it('goes through the model client\'s retries like a chat call', async () => {
    const { transport, requests } = scriptedTransport([errorReply(503, 'busy'), json(200, { data: [{ index: 0, embedding: [1] }] })]);
    const embedder = new OpenAiTextEmbedder(new OpenAiWire({ endpoint: { baseUrl: 'http://localhost:8000/v1', hints }, transport }), 'embedding-model');
    const client = new ModelClient({ languageModel: chatModel([completion('unused')]).model, sleep: noWait });
    expect(await client.call('embedding-model', (signal) => embedder.embed(['a'], signal))).toEqual([[1]]);
    expect(requests).toHaveLength(2);
    expect(client.usage.total().retries).toBe(1);
  });
});
