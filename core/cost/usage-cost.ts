import type { TokenUsage } from '../ports/language-model.ts';
import type { ModelPrice } from './model-prices.ts';

/** What `usage` costs at `price`, in US dollars: cached prompt tokens at the cached price, the rest at full price. */
export function usageCost(usage: TokenUsage, price: ModelPrice): number {
  const cached = Math.min(usage.cachedPromptTokens ?? 0, usage.promptTokens);
  return ((usage.promptTokens - cached) * price.input + cached * price.cachedInput + usage.completionTokens * price.output) / 1_000_000;
}
