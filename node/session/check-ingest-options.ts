import { batchApiPrice, findModelPrice, SragError, type ModelPrice } from '../../core/index.ts';
import { loadModelPrices } from '../runtime/load-model-prices.ts';
import type { SragSettings } from '../runtime/read-settings.ts';

/** The prices an ingest counts with. */
export interface IngestPrice {
  /** The model's list price (built in, or from SRAG_PRICES); what the calls a run makes cost. Undefined when srag knows none. */
  price: ModelPrice | undefined;
  /** What the run's requests are billed at: the Batch API's price with `batchApi`. The budget and the estimate count with it. */
  runPrice: ModelPrice | undefined;
}

/**
 * Checks an ingest's options against each other and the settings before anything runs — a bad
 * setting stops the ingest before its first document, and `srag serve` refuses the request before
 * it makes a job — and returns the extraction model's price. Refused: the Batch API with
 * synthesized extractors, and a spending limit srag cannot count (without the model's price a
 * budget would never stop the run; the fix, as data, says how to give the price). A dry run
 * counts without a limit, so it is never refused for the price.
 */
export function checkIngestOptions(settings: SragSettings, { batchApi, synthesize, maxCostUsd, dryRun }: { batchApi: boolean; synthesize?: boolean; maxCostUsd?: number; dryRun?: boolean }): IngestPrice {
  if (batchApi && synthesize) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: 'the Batch API and synthesized extractors cannot be combined: writing and checking extractors needs replies at once',
      hint: 'ingest with synthesized extractors, without the Batch API',
    });
  }
  const model = settings.extractModel;
  const price = findModelPrice(loadModelPrices({ SRAG_PRICES: settings.pricesFile }), model);
  if (maxCostUsd !== undefined && !price && !dryRun) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `a spending limit needs the price of model "${model}", which srag does not know`,
      hint: 'add it to a JSON file of prices and set SRAG_PRICES to its path, in USD per million tokens',
      fix: { kind: 'price-model', model },
    });
  }
  // Requests through the Batch API are billed at its price: the budget and the estimate count them so.
  return { price, runPrice: price && batchApi ? batchApiPrice(price) : price };
}
