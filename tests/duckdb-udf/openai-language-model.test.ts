import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageModelError } from '../../core/index.ts';
import { OpenAiLanguageModel } from '../../node/runtime/openai-language-model.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';

let standIn: LlmStandIn;
beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['tests/llm-stand-in/fixture-corpus'] });
});
afterAll(async () => {
  await standIn.close();
});

describe('OpenAiLanguageModel errors', () => {
  const model = () => new OpenAiLanguageModel({ baseURL: standIn.url, apiKey: 'sk-test', model: 'gpt-4o-mini', timeoutMilliseconds: 10_000 });

  it('names the status once, then the endpoint\'s own words', async () => {
    standIn.failNext('rate_limit');
    const error = await model().doGenerate({ messages: [{ role: 'user', content: 'hello' }] }).catch((caught: unknown) => caught);
    expect(LanguageModelError.isInstance(error)).toBe(true);
    expect((error as LanguageModelError).message).toBe('the model endpoint answered 429: Rate limit reached for requests (simulated by the LLM stand-in).');
    expect((error as LanguageModelError).retryable).toBe(true);
  });

  it('reads the message of a refusal without the status the SDK puts before it', async () => {
    const error = await model().doGenerate({ messages: [{ role: 'user', content: 'What is the meaning of life?' }] }).then(() => new Error('resolved'), (caught: unknown) => caught as Error);
    expect(error.message).toMatch(/^the model endpoint answered 400: the LLM stand-in does not recognise the prompt/);
  });
});
