import { SragError } from '../errors/srag-error.ts';
import type { ModelPrice, ModelPrices } from './model-prices.ts';

const fields = { input: 'input', cached_input: 'cachedInput', output: 'output' } as const;

/**
 * A prices file's content, checked: `{"model": {"input": 0.15, "cached_input": 0.075, "output": 0.6}}`,
 * USD per million tokens (`cached_input` defaults to `input`). Bad content throws an `INPUT_INVALID`
 * error naming the model and field; `source` names the file in it.
 */
export function readModelPrices(text: string, source: string): ModelPrices {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw invalid(source, `is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid(source, 'must be one JSON object: {"model": {"input": …, "cached_input": …, "output": …}}');
  const prices: Array<[string, ModelPrice]> = [];
  for (const [model, entry] of Object.entries(parsed)) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw invalid(source, `"${model}" must be an object with "input", "cached_input" and "output" in USD per million tokens`);
    const price: Partial<ModelPrice> = {};
    for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
      const field = Object.hasOwn(fields, key) ? fields[key as keyof typeof fields] : undefined;
      if (!field) throw invalid(source, `"${model}" has an unknown field "${key}" (known: input, cached_input, output)`);
      if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw invalid(source, `"${model}".${key} must be a non-negative number of USD per million tokens, got ${JSON.stringify(value)}`);
      price[field] = value;
    }
    if (price.input === undefined || price.output === undefined) throw invalid(source, `"${model}" needs both "input" and "output" (USD per million tokens)`);
    prices.push([model, { input: price.input, cachedInput: price.cachedInput ?? price.input, output: price.output }]);
  }
  return Object.fromEntries(prices);
}

function invalid(source: string, problem: string): SragError {
  return new SragError({ code: 'INPUT_INVALID', message: `${source} ${problem}`, hint: 'fix the prices file, or unset SRAG_PRICES for the built-in prices' });
}
