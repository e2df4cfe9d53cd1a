import { describe, expect, it } from 'vitest';
import { LanguageModelError, SragError } from '../../core/index.ts';
import { OpenAiChatModel, OpenAiWire, endpointIdentity, readErrorBody, type EndpointHints, type HttpRequest, type HttpResponse } from '../../openai-wire/index.ts';
import { caught } from '../helpers/caught.ts';

const hints: EndpointHints = { refusedKey: 'check the key', unknownModel: (model) => `no model ${model}`, unreachable: 'check the address', refusedRequest: 'check SRAG_MODEL', reasoningSpentBudget: 'lower SRAG_REASONING_EFFORT' };
const json = (status: number, body: unknown): HttpResponse => ({ status, headers: {}, body: JSON.stringify(body) });
const request = { messages: [{ role: 'user' as const, content: 'Extract the hotel of this page, please.' }], outputSchema: { name: 'record', schema: { type: 'object' } } };

function answering(...replies: HttpResponse[]) {
  const requests: HttpRequest[] = [];
  const transport = async (sent: HttpRequest) => {
    requests.push(sent);
    return replies[Math.min(requests.length - 1, replies.length - 1)]!;
  };
  const wire = new OpenAiWire({ endpoint: { baseUrl: 'https://models.example/v1', apiKey: 'key-123456', hints }, transport });
  return { model: new OpenAiChatModel(wire, 'a-model'), requests };
}
const choice = (message: Record<string, unknown>, finishReason = 'stop', usage: unknown = { prompt_tokens: 20, completion_tokens: 10 }) =>
  json(200, { model: 'a-model', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }], ...(usage === null ? {} : { usage }) });

describe('replies real models give besides plain text', () => {
  it('reads content given as a list of parts, leaving reasoning parts out', async () => {
    // Content parts as Mistral's reasoning models and some gateways send them (text parts, a thinking part beside them).
    const { model } = answering(choice({ content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'hmm' }] }, { type: 'text', text: '{"name":' }, { type: 'text', text: '"Opal"}' }] }));
    expect((await model.doGenerate(request)).text).toBe('{"name":"Opal"}');
  });

  it('turns a structured-output refusal (message.refusal) into an error about the document, with the model\'s words', async () => {
    // https://platform.openai.com/docs/guides/structured-outputs#refusals: content null, the refusal in message.refusal.
    const { model } = answering(choice({ content: null, refusal: "I'm sorry, I can't help with that request." }));
    const error = await caught(model.doGenerate(request));
    expect(error).toMatchObject({ code: 'LLM_REQUEST_FAILED', aboutDocument: true, retryable: false, reason: 'refusal', message: "the model refused: I'm sorry, I can't help with that request." });
  });

  it('turns finish_reason content_filter into an error about the document', async () => {
    const { model } = answering(choice({ content: null }, 'content_filter'));
    expect(await caught(model.doGenerate(request))).toMatchObject({ aboutDocument: true, reason: 'content filter', message: expect.stringContaining('content filter withheld the reply') });
  });

  it('says that reasoning spent the output budget when a reply stops at its length with nothing to show, and what to change', async () => {
    // finish_reason "length", content "", every completion token spent reasoning: BerriAI/litellm-docs#559, pvliesdonk/markdown-vault-mcp#919 (gpt-5-mini).
    const { model, requests } = answering(choice({ content: '' }, 'length', { prompt_tokens: 900, completion_tokens: 2048, completion_tokens_details: { reasoning_tokens: 2048 } }));
    const error = await caught(model.doGenerate(request));
    expect(error).toMatchObject({
      aboutDocument: true, retryable: false, reason: 'length', hint: 'lower SRAG_REASONING_EFFORT',
      message: 'the reply reached its output limit (finish_reason length) with no answer after 2048 completion tokens, 2048 of them reasoning',
    });
    expect(requests).toHaveLength(1);
  });

  it('takes the arguments of a lone tool call as the reply when they are a JSON object, and otherwise names the tool', async () => {
    const toolCall = (name: string, args: string) => choice({ content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: args } }] }, 'tool_calls');
    expect((await answering(toolCall('record', '{"name":"Opal"}')).model.doGenerate(request)).text).toBe('{"name":"Opal"}');
    const error = await caught(answering(toolCall('search_web', 'not json')).model.doGenerate(request));
    expect(error).toMatchObject({ message: 'the model endpoint https://models.example/v1 sent an unusable reply: the model answered with a tool call (search_web) instead of text' });
  });

  it('estimates the tokens of a reply without usage, and says it did', async () => {
    const { model } = answering(choice({ content: '{"name":"Opal Tower"}' }, 'stop', null));
    const response = await model.doGenerate(request);
    expect(response).toMatchObject({ usageMissing: true, usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) } });
    expect(response.usage.promptTokens).toBeGreaterThan(0);
    expect(response.usage.completionTokens).toBeGreaterThan(0);
  });

  it('adds reasoning tokens to completion tokens where an endpoint counts them apart (total = prompt + completion + reasoning)', async () => {
    // Gemini's thought tokens outside completion_tokens: mozilla-ai/any-llm#1290, router-for-me/CLIProxyAPI#5733.
    const { model } = answering(choice({ content: 'ok' }, 'stop', { prompt_tokens: 21, completion_tokens: 0, total_tokens: 81, completion_tokens_details: { reasoning_tokens: 60 } }));
    expect((await model.doGenerate(request)).usage).toEqual({ promptTokens: 21, completionTokens: 60, reasoningTokens: 60 });
  });

  it('treats OpenRouter\'s 200 that carries an error as a failed call, retried when its code says so', async () => {
    // "the returned HTTP response status will be 200 and any error occurred while the LLM is producing the output will be emitted in the response body": https://openrouter.ai/docs/api/reference/errors-and-debugging
    const { model } = answering(json(200, { error: { code: 502, message: 'Provider returned error', metadata: { provider_name: 'SomeHost', raw: 'upstream timeout' } } }));
    expect(await caught(model.doGenerate(request))).toMatchObject({ status: 502, retryable: true, message: 'the model endpoint https://models.example/v1 answered 200 with an error (502): Provider returned error' });
  });
});

describe('error bodies of every provider', () => {
  it.each([
    ['OpenAI', { error: { message: 'bad', type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } }, { message: 'bad', type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' }],
    // vLLM before 0.10.1: https://github.com/vllm-project/vllm/issues/3485 (flat, "object": "error").
    ['vLLM (flat)', { object: 'error', message: 'The model `x` does not exist.', type: 'NotFoundError', param: null, code: 404 }, { message: 'The model `x` does not exist.', type: 'NotFoundError' }],
    // LM Studio: https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/189 (the error is a string).
    ['LM Studio', { error: "'response_format.type' must be 'json_schema'" }, { message: "'response_format.type' must be 'json_schema'" }],
    // Gemini's OpenAI endpoint: a list (SuzumiyaAkizuki/ComfyUI-NewBie-LLM-Formatter#3).
    ['Gemini', [{ error: { code: 400, message: 'Invalid JSON payload received. Unknown name "reasoning": Cannot find field.', status: 'INVALID_ARGUMENT' } }], { message: 'Invalid JSON payload received. Unknown name "reasoning": Cannot find field.', code: 'INVALID_ARGUMENT' }],
    // llama.cpp server: a numeric code (ggml-org/llama.cpp#11847).
    ['llama.cpp server', { error: { code: 400, message: 'Either "json_schema" or "grammar" can be specified, but not both', type: 'invalid_request_error' } }, { message: 'Either "json_schema" or "grammar" can be specified, but not both', type: 'invalid_request_error' }],
  ])('reads %s\'s shape', (_provider, body, expected) => {
    expect(readErrorBody(JSON.stringify(body))).toEqual(expected);
  });

  it('fails only the document for a prompt longer than the context or a filtered prompt, whatever the provider says it with', async () => {
    const documentRefusals = [
      { error: { message: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130422 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
      // vLLM: https://github.com/vllm-project/vllm/issues/12886
      { object: 'error', message: "This model's maximum context length is 2048 tokens. However, you requested 2723 tokens (1699 in the messages, 1024 in the completion).", type: 'BadRequestError', param: null, code: 400 },
      // llama.cpp server: https://github.com/oobabooga/textgen/issues/7257
      { error: { code: 400, message: 'the request exceeds the available context size. try increasing the context size or enable context shift', type: 'exceed_context_size_error', n_prompt_tokens: 14429, n_ctx: 8192 } },
      // Azure: https://github.com/openai/openai-python/issues/331
      { error: { message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", type: null, param: 'prompt', code: 'content_filter', status: 400 } },
    ];
    for (const body of documentRefusals) {
      const error = await caught(answering(json(400, body)).model.doGenerate(request));
      expect({ body, aboutDocument: (error as LanguageModelError).aboutDocument, hint: (error as LanguageModelError).hint }).toEqual({ body, aboutDocument: true, hint: undefined });
    }
  });

  it('gives a request error that may be a setting\'s the runtime\'s hint, and a 402 the quota\'s code', async () => {
    const setting = await caught(answering(json(400, { error: { message: 'The API deployment for this resource does not exist.', code: 'DeploymentNotFound' } })).model.doGenerate(request));
    expect(setting).toMatchObject({ aboutDocument: false, hint: 'check SRAG_MODEL' });
    // OpenRouter's insufficient credits: https://openrouter.ai/docs/api/reference/errors-and-debugging
    const credits = await caught(answering(json(402, { error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/settings/credits' } })).model.doGenerate(request));
    expect(SragError.isInstance(credits) && credits.code).toBe('QUOTA_EXCEEDED');
  });
});

describe('the endpoint as a reply\'s origin', () => {
  it('is the base URL without credentials, query, fragment or trailing slash', () => {
    expect(endpointIdentity('https://user:pass@My-Resource.openai.azure.com/openai/v1/?api-key=SECRET#x')).toBe('https://my-resource.openai.azure.com/openai/v1');
    expect(endpointIdentity('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1');
  });

  it('is what the chat model reports as its endpoint, and the key goes in api-key for Azure', async () => {
    const requests: HttpRequest[] = [];
    const wire = new OpenAiWire({
      endpoint: { baseUrl: 'https://res.openai.azure.com/openai/v1', apiKey: 'azure-key-1', keyHeader: 'api-key', hints },
      transport: async (sent) => { requests.push(sent); return choice({ content: 'ok' }); },
    });
    const model = new OpenAiChatModel(wire, 'my-deployment');
    expect(model.endpoint).toBe('https://res.openai.azure.com/openai/v1');
    await model.doGenerate(request);
    expect(requests[0]!.headers).toEqual({ 'Content-Type': 'application/json', 'api-key': 'azure-key-1' });
  });
});
