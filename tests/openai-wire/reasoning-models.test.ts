import { describe, expect, it } from 'vitest';
import { LanguageModelError, ModelClient, type LanguageModelRequest, type LanguageModelResponse } from '../../core/index.ts';
import {
  OpenAiBatchApi, OpenAiChatModel, OpenAiWire, ParameterAdaptations, modelParameterRules,
  type ChatRequestSettings, type EndpointHints, type HttpRequest, type HttpResponse, type LearnedAdaptation, type ParameterAdaptation,
} from '../../openai-wire/index.ts';
import { caught } from '../helpers/caught.ts';

const hints: EndpointHints = { refusedKey: 'check the key', unknownModel: (model) => `no model ${model}`, unreachable: 'check the address', refusedRequest: 'check SRAG_MODEL' };
const json = (status: number, body: unknown): HttpResponse => ({ status, headers: {}, body: JSON.stringify(body) });
const completion = (content: string, usage: Record<string, unknown> = { prompt_tokens: 11, completion_tokens: 7 }) =>
  json(200, { model: 'served', choices: [{ message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }], usage });
const request: LanguageModelRequest = { messages: [{ role: 'user', content: 'How many hotels?' }], outputSchema: { name: 'record', schema: { type: 'object' } } };
const noWait = async () => {};

/**
 * OpenAI's refusals for its reasoning models, each body as public issue threads quote it:
 * - temperature on gpt-5 / gpt-5-mini: https://github.com/QwenLM/qwen-code/issues/921,
 *   https://github.com/gabrii/Cursor-Azure-GPT-5/issues/33 (code unsupported_value);
 * - temperature on o3-mini: https://github.com/chatboxai/chatbox/issues/1830 (code unsupported_parameter);
 * - max_tokens on gpt-5: https://github.com/griptape-ai/ComfyUI-Griptape/issues/312;
 * - reasoning_effort on gpt-4o-mini: https://github.com/davidmigloz/langchain_dart/issues/712.
 */
const refusals = {
  temperatureValue: { message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' },
  temperatureParameter: { message: "Unsupported parameter: 'temperature' is not supported with this model.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_parameter' },
  maxTokens: { message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", type: 'invalid_request_error', param: 'max_tokens', code: 'unsupported_parameter' },
  reasoningEffort: { message: 'Unrecognized request argument supplied: reasoning_effort', type: 'invalid_request_error', param: null, code: null },
};

/** An endpoint that applies OpenAI's reasoning-model rules to whatever model it is asked for. */
function reasoningEndpoint(options: { settings?: ChatRequestSettings; adaptations?: ParameterAdaptations; temperatureRefusal?: keyof typeof refusals } = {}) {
  const requests: Array<Record<string, unknown>> = [];
  const transport = async (sent: HttpRequest): Promise<HttpResponse> => {
    const body = JSON.parse(sent.body!) as Record<string, unknown>;
    requests.push(body);
    if ('temperature' in body && body.temperature !== 1) return json(400, { error: refusals[options.temperatureRefusal ?? 'temperatureValue'] });
    if ('max_tokens' in body) return json(400, { error: refusals.maxTokens });
    return completion('{"a":1}', { prompt_tokens: 50, completion_tokens: 300, total_tokens: 350, completion_tokens_details: { reasoning_tokens: 256 } });
  };
  const wire = new OpenAiWire({ endpoint: { baseUrl: 'https://models.example/v1', apiKey: 'k', hints }, transport, requestSettings: options.settings, adaptations: options.adaptations });
  return { wire, requests, model: (id: string) => new OpenAiChatModel(wire, id) };
}

describe('requests that fit the model', () => {
  it('sends OpenAI reasoning models no temperature, max_completion_tokens for the output limit, and the reasoning effort', async () => {
    const { model, requests } = reasoningEndpoint({ settings: { reasoningEffort: 'low', maxOutputTokens: 4000 } });
    for (const id of ['gpt-5-mini', 'o3-mini', 'o4-mini-2025-04-16', 'openai/gpt-5']) await model(id).doGenerate(request);
    expect(requests.map((body) => ({ model: body.model, temperature: body.temperature, max_tokens: body.max_tokens, max_completion_tokens: body.max_completion_tokens, reasoning_effort: body.reasoning_effort }))).toEqual(
      ['gpt-5-mini', 'o3-mini', 'o4-mini-2025-04-16', 'openai/gpt-5'].map((id) => ({ model: id, temperature: undefined, max_tokens: undefined, max_completion_tokens: 4000, reasoning_effort: 'low' })));
  });

  it('keeps temperature 0 and max_tokens for chat models, and sends gpt-4o no reasoning effort it would refuse', () => {
    expect(modelParameterRules('gpt-4o-mini')).toEqual({ temperature: true, maxTokensName: 'max_tokens', reasoningEffort: false });
    expect(modelParameterRules('gpt-5-chat-latest')).toEqual({ temperature: true, maxTokensName: 'max_tokens', reasoningEffort: false });
    expect(modelParameterRules('llama3.1:8b')).toEqual({ temperature: true, maxTokensName: 'max_tokens', reasoningEffort: true });
  });

  it('counts the reasoning tokens of a reply within its completion tokens', async () => {
    const { model } = reasoningEndpoint();
    const response = await model('gpt-5-mini').doGenerate(request);
    expect(response.usage).toEqual({ promptTokens: 50, completionTokens: 300, reasoningTokens: 256 });
  });
});

describe('a parameter the endpoint refuses', () => {
  it('is dropped, the request asked again once, and the model asked without it from then on', async () => {
    // An Azure deployment's name says nothing of its model: the rules are learned from the refusals.
    const learned: Array<[string, LearnedAdaptation]> = [];
    const adaptations = new ParameterAdaptations({}, (modelId, _adaptation, change) => learned.push([modelId, change]));
    const { model, requests } = reasoningEndpoint({ adaptations });
    const deployment = model('my-reasoning-deployment');
    expect((await deployment.doGenerate(request)).text).toBe('{"a":1}');
    await deployment.doGenerate(request);
    expect(requests.map((body) => 'temperature' in body)).toEqual([true, false, false]);
    expect(learned).toEqual([['my-reasoning-deployment', { kind: 'dropped', parameter: 'temperature' }]]);
  });

  it('is renamed when the endpoint says what to use instead (max_tokens → max_completion_tokens), and both refusals are learned for one request', async () => {
    const { model, requests, wire } = reasoningEndpoint({ settings: { maxOutputTokens: 2000 } });
    await model('my-deployment').doGenerate(request);
    expect(requests.map((body) => Object.keys(body).filter((key) => /temperature|max_/.test(key)))).toEqual([['temperature', 'max_tokens'], ['max_tokens'], ['max_completion_tokens']]);
    expect(wire.adaptations.for('my-deployment')).toEqual({ dropped: ['temperature'], renamed: { max_tokens: 'max_completion_tokens' } });
  });

  it('reads o3-mini\'s other wording of the temperature refusal too', async () => {
    const { model, requests } = reasoningEndpoint({ temperatureRefusal: 'temperatureParameter' });
    await model('my-o3-mini').doGenerate(request);
    expect(requests.map((body) => 'temperature' in body)).toEqual([true, false]);
  });

  it('drops a reasoning effort a model refuses, whatever the message\'s shape', async () => {
    const requests: Array<Record<string, unknown>> = [];
    const transport = async (sent: HttpRequest) => {
      const body = JSON.parse(sent.body!) as Record<string, unknown>;
      requests.push(body);
      return 'reasoning_effort' in body ? json(400, { error: refusals.reasoningEffort }) : completion('ok');
    };
    const wire = new OpenAiWire({ endpoint: { baseUrl: 'http://localhost:8000/v1', hints }, transport, requestSettings: { reasoningEffort: 'high' } });
    expect((await new OpenAiChatModel(wire, 'some-local-model').doGenerate(request)).text).toBe('ok');
    expect(requests.map((body) => body.reasoning_effort)).toEqual(['high', undefined]);
  });

  it('is not adapted twice for one request: a second refusal of the same parameter is the error', async () => {
    const transport = async () => json(400, { error: refusals.temperatureValue });
    const wire = new OpenAiWire({ endpoint: { baseUrl: 'https://models.example/v1', hints }, transport });
    const error = await caught(new OpenAiChatModel(wire, 'stubborn').doGenerate({ messages: request.messages }));
    // Dropped once, then the endpoint still names it (it sent no temperature this time): the request fails.
    expect(LanguageModelError.isInstance(error) && error.status).toBe(400);
  });

  it('applies what was learned, and the model rules, to the Batch API\'s request lines too', async () => {
    const uploads: string[] = [];
    const transport = async (sent: HttpRequest): Promise<HttpResponse> => {
      if (sent.url.endsWith('/files')) {
        uploads.push(sent.body!);
        return json(200, { id: 'file-1' });
      }
      return json(200, { id: 'batch-1', status: 'validating' });
    };
    const learned: Record<string, ParameterAdaptation> = { 'my-deployment': { dropped: ['temperature'], renamed: { max_tokens: 'max_completion_tokens' } } };
    const wire = new OpenAiWire({ endpoint: { baseUrl: 'https://models.example/v1', apiKey: 'k', hints }, transport, adaptations: new ParameterAdaptations(learned), requestSettings: { maxOutputTokens: 900 } });
    await new OpenAiBatchApi(wire).submit([
      { customId: 'a', request: { model: 'my-deployment', messages: request.messages } },
      { customId: 'b', request: { model: 'gpt-5-nano', messages: request.messages } },
      { customId: 'c', request: { model: 'gpt-4o-mini', messages: request.messages } },
    ]);
    const bodies = uploads[0]!.split('\n').filter((text) => text.startsWith('{')).map((text) => JSON.parse(text).body as Record<string, unknown>);
    expect(bodies.map(({ model, temperature, max_tokens, max_completion_tokens }) => ({ model, temperature, max_tokens, max_completion_tokens }))).toEqual([
      { model: 'my-deployment', temperature: undefined, max_tokens: undefined, max_completion_tokens: 900 },
      { model: 'gpt-5-nano', temperature: undefined, max_tokens: undefined, max_completion_tokens: 900 },
      { model: 'gpt-4o-mini', temperature: 0, max_tokens: 900, max_completion_tokens: undefined },
    ]);
  });

  it('lets a run with gpt-5-mini against OpenAI\'s rules do every request without one refusal reaching the model client', async () => {
    const { model, requests } = reasoningEndpoint({ settings: { reasoningEffort: 'minimal' } });
    const client = new ModelClient({ languageModel: model('gpt-5-mini'), sleep: noWait });
    for (let index = 0; index < 5; index += 1) {
      await client.generate({ ...request, messages: [{ role: 'user', content: `document ${index}` }] }, (response: LanguageModelResponse) => response);
    }
    expect(requests).toHaveLength(5);
    expect(client.usage.total()).toMatchObject({ calls: 5, reasoningTokens: 5 * 256 });
  });
});
