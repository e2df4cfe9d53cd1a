import { describe, expect, it } from 'vitest';
import { defaultModelPrices, findModelPrice, usageCost } from '../../core/index.ts';

describe('the built-in prices', () => {
  it('price OpenAI\'s reasoning models, their dated snapshots and their names on OpenRouter', () => {
    for (const model of ['gpt-5', 'gpt-5-mini', 'gpt-5-nano', 'o1', 'o3', 'o3-mini', 'o4-mini', 'o4-mini-2025-04-16', 'gpt-5-mini-2025-08-07', 'openai/gpt-5-mini', 'openai/o3']) {
      expect({ model, priced: findModelPrice(defaultModelPrices, model) !== undefined }).toEqual({ model, priced: true });
    }
    expect(findModelPrice(defaultModelPrices, 'openai/gpt-5-mini')).toBe(defaultModelPrices['gpt-5-mini']);
    // A deployment or another vendor's model is not guessed.
    expect(findModelPrice(defaultModelPrices, 'my-deployment')).toBeUndefined();
    expect(findModelPrice(defaultModelPrices, 'meta-llama/llama-3.1-8b-instruct')).toBeUndefined();
  });

  it('bill reasoning tokens as output, within the completion tokens OpenAI reports', () => {
    // 1,000 prompt tokens and 3,000 completion tokens of which 2,800 were reasoning, on gpt-5-mini ($0.25 in, $2 out).
    const cost = usageCost({ promptTokens: 1000, completionTokens: 3000, reasoningTokens: 2800 }, findModelPrice(defaultModelPrices, 'gpt-5-mini')!);
    expect(cost).toBeCloseTo((1000 * 0.25 + 3000 * 2) / 1_000_000, 12);
  });
});
