import { describe, expect, it } from 'vitest';
import { defaultMaxReplyBytes } from '../../openai-wire/index.ts';
import { readSettings, secretSettings } from '../../node/runtime/read-settings.ts';
import { caught } from '../helpers/caught.ts';

describe('the endpoint settings', () => {
  it('read Azure OpenAI as the openai SDK\'s AzureOpenAI does: AZURE_OPENAI_ENDPOINT\'s v1 API, AZURE_OPENAI_API_KEY in the api-key header', () => {
    // AzureOpenAI reads AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT and sends the key as `api-key` (node_modules/openai/src/azure.ts);
    // the v1 API lives at https://RESOURCE.openai.azure.com/openai/v1/ (learn.microsoft.com, "API version lifecycle").
    const settings = readSettings({ AZURE_OPENAI_ENDPOINT: 'https://my-resource.openai.azure.com/', AZURE_OPENAI_API_KEY: 'azure-key' });
    expect(settings).toMatchObject({ baseURL: 'https://my-resource.openai.azure.com/openai/v1', apiKey: 'azure-key', keyHeader: 'api-key', endpoint: 'https://my-resource.openai.azure.com/openai/v1' });
  });

  it('send the key in api-key for a base URL on an Azure host, and as a bearer token elsewhere', () => {
    expect(readSettings({ OPENAI_BASE_URL: 'https://x.cognitiveservices.azure.com/openai/v1', OPENAI_API_KEY: 'k' }).keyHeader).toBe('api-key');
    expect(readSettings({ OPENAI_BASE_URL: 'https://x.services.ai.azure.com/openai/v1?api-version=preview', OPENAI_API_KEY: 'k' }).keyHeader).toBe('api-key');
    expect(readSettings({ OPENAI_BASE_URL: 'https://openrouter.ai/api/v1', OPENAI_API_KEY: 'k' }).keyHeader).toBe('authorization');
    expect(readSettings({ OPENAI_BASE_URL: 'https://evil.example/openai.azure.com/v1', OPENAI_API_KEY: 'k' }).keyHeader).toBe('authorization');
  });

  it('name the endpoint replies are cached for without its credentials or query, and none when nothing is configured', () => {
    expect(readSettings({ OPENAI_API_KEY: 'sk-x' }).endpoint).toBe('https://api.openai.com/v1');
    expect(readSettings({ OPENAI_BASE_URL: 'http://user:secret@LOCALHOST:11434/v1/?token=abc' }).endpoint).toBe('http://localhost:11434/v1');
    expect(readSettings({}).endpoint).toBeUndefined();
    expect(secretSettings({ AZURE_OPENAI_API_KEY: 'azure-key' })).toContain('azure-key');
  });

  it('take SRAG_REASONING_EFFORT and SRAG_MAX_OUTPUT_TOKENS, refusing a bad value in one line naming the fix', async () => {
    expect(readSettings({ SRAG_REASONING_EFFORT: 'Low', SRAG_MAX_OUTPUT_TOKENS: '8000' })).toMatchObject({ reasoningEffort: 'low', maxOutputTokens: 8000 });
    expect(readSettings({})).toMatchObject({ reasoningEffort: undefined, maxOutputTokens: undefined });
    expect(await caught((async () => readSettings({ SRAG_REASONING_EFFORT: 'maximum' }))())).toMatchObject({
      code: 'INPUT_INVALID', message: 'SRAG_REASONING_EFFORT="maximum" is not one of none, minimal, low, medium, high, xhigh',
    });
    expect(await caught((async () => readSettings({ SRAG_MAX_OUTPUT_TOKENS: '0' }))())).toMatchObject({ code: 'INPUT_INVALID', hint: 'set it to a number of tokens, or unset it to send no limit' });
  });
});

describe('the settings read from the environment', () => {
  it('bounds a reply at 8 MiB unless SRAG_MAX_REPLY_BYTES says otherwise, and refuses a bound that is not a whole number before any run', async () => {
    expect(readSettings({}).maxReplyBytes).toBe(defaultMaxReplyBytes);
    expect(defaultMaxReplyBytes).toBe(8 * 1024 * 1024);
    expect(readSettings({ SRAG_MAX_REPLY_BYTES: '65536' }).maxReplyBytes).toBe(65_536);
    const error = await caught(Promise.resolve().then(() => readSettings({ SRAG_MAX_REPLY_BYTES: '8MB' })));
    expect({ code: (error as { code?: string }).code, message: (error as Error).message, hint: (error as { hint?: string }).hint }).toEqual({
      code: 'INPUT_INVALID', message: 'SRAG_MAX_REPLY_BYTES="8MB" is not a positive whole number', hint: `unset it for the default (${defaultMaxReplyBytes})`,
    });
  });
});
