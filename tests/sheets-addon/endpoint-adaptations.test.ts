import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ModelClient } from '../../core/index.ts';
import { OpenAiChatModel, OpenAiWire, type HttpRequest, type HttpResponse } from '../../openai-wire/index.ts';
import { propertyParameterAdaptations } from '../../sheets-addon/src/apps-script/property-parameter-adaptations.ts';
import { settingsHints } from '../../sheets-addon/src/model/create-model-client.ts';
import { PropertiesServiceStandIn, PropertyStore } from './helpers/apps-script-host/service-stand-ins.ts';

const globals = globalThis as Record<string, unknown>;
let documentProperties: PropertyStore;

beforeEach(() => {
  documentProperties = new PropertyStore();
  globals.PropertiesService = new PropertiesServiceStandIn({ document: documentProperties, user: new PropertyStore(), script: new PropertyStore() });
});
afterEach(() => {
  delete globals.PropertiesService;
});

/** An Azure deployment of a reasoning model: refuses temperature 0 as OpenAI's reasoning models do (QwenLM/qwen-code#921). */
function reasoningDeployment() {
  const requests: Array<Record<string, unknown>> = [];
  const transport = async (sent: HttpRequest): Promise<HttpResponse> => {
    const body = JSON.parse(sent.body!) as Record<string, unknown>;
    requests.push(body);
    if ('temperature' in body) {
      return { status: 400, headers: {}, body: JSON.stringify({ error: { message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", type: 'invalid_request_error', param: 'temperature', code: 'unsupported_value' } }) };
    }
    return { status: 200, headers: {}, body: JSON.stringify({ choices: [{ message: { content: 'ok' }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 1 } }) };
  };
  return { transport, requests };
}

describe('what an endpoint refuses, in the Sheets add-on', () => {
  it('is learned in one execution and kept in the document properties for the next, without the key or the base URL\'s credentials', async () => {
    const baseUrl = 'https://user:secret@my-resource.openai.azure.com/openai/v1?api-key=QUERYSECRET';
    const execution = async () => {
      const endpoint = reasoningDeployment();
      const wire = new OpenAiWire({ endpoint: { baseUrl, apiKey: 'azure-key-77', hints: settingsHints }, transport: endpoint.transport, adaptations: propertyParameterAdaptations(baseUrl) });
      const client = new ModelClient({ languageModel: new OpenAiChatModel(wire, 'my-deployment'), sleep: async () => {} });
      await client.generate({ messages: [{ role: 'user', content: 'Which city?' }] }, (response) => response.text);
      return endpoint.requests.map((body) => 'temperature' in body);
    };
    expect(await execution()).toEqual([true, false]);
    expect(await execution()).toEqual([false]);
    const kept = [...documentProperties.values.entries()];
    expect(kept).toEqual([['srag.endpointAdaptations', JSON.stringify({ 'https://my-resource.openai.azure.com/openai/v1': { 'my-deployment': { dropped: ['temperature'], renamed: {} } } })]]);
    expect(JSON.stringify(kept)).not.toMatch(/secret|QUERYSECRET|azure-key-77/i);
  });
});
