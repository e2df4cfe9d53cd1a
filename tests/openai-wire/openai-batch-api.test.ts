import { describe, expect, it } from 'vitest';
import { DeferringLanguageModel, ModelClient, SragError, splitBatchRequests, type BatchRequest } from '../../core/index.ts';
import { OpenAiBatchApi, OpenAiWire, type EndpointHints, type HttpRequest, type HttpResponse } from '../../openai-wire/index.ts';
import { settingsHints } from '../../sheets-addon/src/model/create-model-client.ts';
import { caught } from '../helpers/caught.ts';

const hints: EndpointHints = { refusedKey: 'check the key', unknownModel: (model) => `no model ${model}`, unreachable: 'check the address' };
const json = (body: unknown): HttpResponse => ({ status: 200, headers: {}, body: JSON.stringify(body) });

/** A wire whose transport answers by method and path, recording every request. */
function batchApiOver(answer: (request: HttpRequest, path: string) => HttpResponse, apiKey = 'key-batch-42', maxReplyBytes?: number) {
  const requests: HttpRequest[] = [];
  const transport = async (request: HttpRequest) => {
    requests.push(request);
    return answer(request, new URL(request.url).pathname.replace(/^\/v1/, ''));
  };
  const wire = new OpenAiWire({ endpoint: { baseUrl: 'https://models.example/v1', apiKey, hints }, transport });
  return { api: new OpenAiBatchApi(wire, maxReplyBytes), requests };
}

const line = (customId: string): BatchRequest => ({
  customId,
  request: { model: 'gpt-test', messages: [{ role: 'user', content: `extract ${customId}` }], outputSchema: { name: 'record', schema: { type: 'object' } } },
});

describe('the Batch API over the OpenAI wire', () => {
  it('uploads the requests as a JSONL file with purpose batch, then creates a 24h batch over /v1/chat/completions', async () => {
    const { api, requests } = batchApiOver((request, path) => (path === '/files' ? json({ id: 'file-in-1' }) : json({ id: 'batch-1', status: 'validating' })));
    expect(await api.submit([line('key-a'), line('key-b')])).toBe('batch-1');
    const [upload, create] = requests;
    expect(upload).toMatchObject({ url: 'https://models.example/v1/files', method: 'POST', headers: { Authorization: 'Bearer key-batch-42' } });
    const boundary = /boundary=(\S+)/.exec(upload!.headers['Content-Type']!)![1]!;
    expect(upload!.headers['Content-Type']).toBe(`multipart/form-data; boundary=${boundary}`);
    expect(upload!.body).toContain('Content-Disposition: form-data; name="purpose"\r\n\r\nbatch\r\n');
    const file = upload!.body!.split(/Content-Type: application\/jsonl\r\n\r\n/)[1]!.split(`\r\n--${boundary}--`)[0]!;
    const lines = file.trim().split('\n').map((text) => JSON.parse(text));
    expect(lines).toEqual(['key-a', 'key-b'].map((key) => ({
      custom_id: key, method: 'POST', url: '/v1/chat/completions',
      body: {
        model: 'gpt-test', messages: [{ role: 'user', content: `extract ${key}` }], temperature: 0,
        response_format: { type: 'json_schema', json_schema: { name: 'record', schema: { type: 'object' }, strict: true } },
      },
    })));
    expect(create!.url).toBe('https://models.example/v1/batches');
    expect(JSON.parse(create!.body!)).toEqual({ input_file_id: 'file-in-1', endpoint: '/v1/chat/completions', completion_window: '24h' });
    // The key travels in the header only.
    expect(requests.every((request) => !request.url.includes('key-batch-42') && !request.body?.includes('key-batch-42'))).toBe(true);
  });

  it('reads a batch\'s progress, then the replies of its output file and the failed lines of its error file', async () => {
    let finished = false;
    const { api } = batchApiOver((_request, path) => {
      if (path === '/batches/batch-7') {
        return json({
          id: 'batch-7', status: finished ? 'expired' : 'in_progress', output_file_id: finished ? 'file-out' : null, error_file_id: finished ? 'file-err' : null,
          request_counts: { total: 3, completed: finished ? 1 : 0, failed: finished ? 2 : 0 },
        });
      }
      if (path === '/files/file-out/content') {
        return { status: 200, headers: {}, body: `${JSON.stringify({ custom_id: 'key-a', response: { status_code: 200, body: { model: 'gpt-test-1', choices: [{ message: { content: '{"a":1}' } }], usage: { prompt_tokens: 30, completion_tokens: 5 } } }, error: null })}\n` };
      }
      return {
        status: 200, headers: {}, body: [
          { custom_id: 'key-b', response: null, error: { code: 'batch_expired', message: 'This request could not be executed before the completion window expired.' } },
          { custom_id: 'key-c', response: { status_code: 500, body: { error: { message: 'server error' } } }, error: null },
        ].map((entry) => JSON.stringify(entry)).join('\n'),
      };
    });
    expect(await api.retrieve('batch-7')).toEqual({ id: 'batch-7', status: 'in_progress', finished: false, total: 3, completed: 0, failed: 0, errors: [] });
    finished = true;
    expect((await api.retrieve('batch-7')).finished).toBe(true);
    expect(await api.results('batch-7')).toEqual([
      { customId: 'key-a', response: { text: '{"a":1}', model: 'gpt-test-1', usage: { promptTokens: 30, completionTokens: 5 } } },
      { customId: 'key-b', error: 'batch_expired: This request could not be executed before the completion window expired.' },
      { customId: 'key-c', error: '500: server error' },
    ]);
  });

  it('fails a line whose reply is longer than the bound on one reply, and reads the others', async () => {
    const reply = (customId: string, content: string) => JSON.stringify({ custom_id: customId, response: { status_code: 200, body: { choices: [{ message: { content } }] } }, error: null });
    const { api } = batchApiOver((_request, path) => (path === '/batches/batch-8'
      ? json({ id: 'batch-8', status: 'completed', output_file_id: 'file-out' })
      : { status: 200, headers: {}, body: [reply('key-a', '{"a":1}'), reply('key-b', `{"a":"${'x'.repeat(1_000)}"}`)].join('\n') }), 'key-batch-42', 500);
    expect(await api.results('batch-8')).toEqual([
      // The reply states no usage: its completion is estimated from its text, and said to be (see reply-shapes.test.ts).
      { customId: 'key-a', response: { text: '{"a":1}', model: '', usage: { promptTokens: 0, completionTokens: 2 }, usageMissing: true } },
      { customId: 'key-b', error: 'too long: the reply is longer than 500 bytes, the most read of one reply' },
    ]);
  });

  it('says the endpoint has no Batch API when /batches answers 404, and how to go on', async () => {
    const { api } = batchApiOver((_request, path) => (path === '/files' ? json({ id: 'file-in-1' }) : { status: 404, headers: {}, body: JSON.stringify({ error: { message: 'Not Found' } }) }));
    const error = await caught(api.submit([line('key-a')]));
    expect(SragError.isInstance(error) && error.message).toBe('the endpoint https://models.example/v1 has no Batch API (POST /batches answered 404)');
    expect(SragError.isInstance(error) && error.hint).toMatch(/without --batch-api/);
  });

  it('reports a batch the endpoint does not know as finished with nothing to read, so its requests are asked again', async () => {
    const { api } = batchApiOver(() => ({ status: 404, headers: {}, body: JSON.stringify({ error: { message: 'No batch found' } }) }));
    expect(await api.retrieve('batch-gone')).toMatchObject({ id: 'batch-gone', status: 'unknown', finished: true });
    expect(await api.results('batch-gone')).toEqual([]);
  });

  it('is refused in the Sheets add-on, with a line saying where the Batch API is offered', () => {
    const wire = new OpenAiWire({ endpoint: { baseUrl: 'https://models.example/v1', apiKey: 'k', hints: settingsHints }, transport: async () => json({}) });
    expect(() => new OpenAiBatchApi(wire)).toThrow(/^the Sheets add-on does not use the Batch API: .*srag ingest … --batch-api/);
  });
});

describe('requests deferred to the Batch API', () => {
  it('collects each request once, under the model client\'s cache key, and sends those it must not defer', async () => {
    let sent = 0;
    let client: ModelClient;
    const model = new DeferringLanguageModel({
      languageModel: { modelId: 'gpt-test', doGenerate: async () => {
        sent += 1;
        return { text: '{}', model: 'gpt-test', usage: { promptTokens: 1, completionTokens: 1 } };
      } },
      keyOf: (request) => client.cacheKey(request),
      defer: (key) => key !== client.cacheKey({ model: 'gpt-test', messages: [{ role: 'user', content: 'live' }] }),
    });
    client = new ModelClient({ languageModel: model, sleep: async () => {} });
    const ask = (content: string) => client.generate({ messages: [{ role: 'user', content }] }, (response) => response.text);
    for (const content of ['one', 'two', 'one']) expect((await caught(ask(content)) as SragError).code).toBe('DEFERRED_TO_BATCH');
    expect(await ask('live')).toBe('{}');
    expect(sent).toBe(1);
    const requests = model.take();
    expect(requests.map((request) => request.customId)).toEqual(['one', 'two'].map((content) => client.cacheKey({ model: 'gpt-test', messages: [{ role: 'user', content }] })));
    expect(requests[0]!.request).toEqual({ model: 'gpt-test', messages: [{ role: 'user', content: 'one' }] });
    // Taken once: the next run's submission starts empty.
    expect(model.take()).toEqual([]);
  });

  it('splits a submission at the provider\'s request and size limits', () => {
    const requests = Array.from({ length: 7 }, (_, index) => line(`key-${index}`));
    expect(splitBatchRequests(requests, { maxRequestsPerBatch: 3, maxBytesPerBatch: 1e9 }).map((batch) => batch.length)).toEqual([3, 3, 1]);
    const oneLine = JSON.stringify(requests[0]!.request).length * 3 + 300;
    expect(splitBatchRequests(requests, { maxRequestsPerBatch: 50_000, maxBytesPerBatch: oneLine * 2 }).map((batch) => batch.length)).toEqual([2, 2, 2, 1]);
  });
});
