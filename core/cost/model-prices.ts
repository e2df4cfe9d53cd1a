/** What one model costs, in US dollars per million tokens. */
export interface ModelPrice {
  /** Prompt tokens at the full price. */
  input: number;
  /** Prompt tokens the endpoint served from its prompt cache (OpenAI bills them at a discount). */
  cachedInput: number;
  output: number;
}

/** Model name → price. */
export type ModelPrices = Readonly<Record<string, ModelPrice>>;

/**
 * OpenAI's list prices for standard (not Batch API) requests, USD per million tokens, as published
 * in 2025 (o3 after its June 2025 cut). A reasoning model's reasoning tokens are output tokens,
 * within `completion_tokens`, and billed as such. Prices change: override or add models with a
 * prices file (`SRAG_PRICES=prices.json` in the CLI); a model missing here gets token counts
 * without a cost.
 */
export const defaultModelPrices: ModelPrices = {
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-5-chat-latest': { input: 1.25, cachedInput: 0.125, output: 10 },
  'o1': { input: 15, cachedInput: 7.5, output: 60 },
  'o1-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o3': { input: 2, cachedInput: 0.5, output: 8 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o3-pro': { input: 20, cachedInput: 20, output: 80 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
};

/**
 * The price of `model`: its own entry, else the entry of the name without a dated snapshot suffix
 * (`gpt-4o-mini-2024-07-18` is priced as `gpt-4o-mini`), and OpenRouter's `openai/` prefix is looked
 * through (`openai/gpt-5-mini`: OpenRouter passes OpenAI's token prices on); undefined when none is known.
 */
export function findModelPrice(prices: ModelPrices, model: string): ModelPrice | undefined {
  for (const name of [model, model.replace(/^openai\//, '')]) {
    if (Object.hasOwn(prices, name)) return prices[name];
    const undated = name.replace(/-\d{4}-\d{2}-\d{2}$/, '');
    if (undated !== name && Object.hasOwn(prices, undated)) return prices[undated];
  }
  return undefined;
}
