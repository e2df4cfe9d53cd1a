import type { ModelPrice } from './model-prices.ts';

/**
 * What a request costs through the provider's Batch API: OpenAI bills batch input and output
 * tokens at half the standard price (answered within 24 hours instead of at once).
 */
export function batchApiPrice(price: ModelPrice): ModelPrice {
  return { input: price.input / 2, cachedInput: price.cachedInput / 2, output: price.output / 2 };
}
