import { readFileSync } from 'node:fs';
import { defaultModelPrices, readModelPrices, SragError, type ModelPrices } from '../../core/index.ts';

/**
 * The price table: core's built-in list prices, with the entries of the JSON file SRAG_PRICES
 * names laid over them (`{"my-model": {"input": 0.2, "cached_input": 0.1, "output": 0.8}}`, USD
 * per million tokens).
 */
export function loadModelPrices(environment: Record<string, string | undefined> = process.env): ModelPrices {
  const file = environment.SRAG_PRICES;
  if (!file) return defaultModelPrices;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `SRAG_PRICES names ${file}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      hint: 'point SRAG_PRICES at a JSON file of prices, or unset it for the built-in prices',
    });
  }
  return { ...defaultModelPrices, ...readModelPrices(text, `the prices file ${file} (SRAG_PRICES)`) };
}
