import {
  countNoun, documentText, estimateExtractionUsage, findModelPrice, formatUsd, resolveBatchSize, usageCost,
  type AttributeDefinition, type ModelPrices, type PromptLibrary, type RecordSchema,
} from '../../core/index.ts';
import type { DocumentFiles } from '../ports/document-files.ts';
import type { BackfillEstimate } from '../ports/table-grower.ts';

export interface EstimateBackfillOptions {
  sources: readonly string[];
  /** The attributes the back-fill asks for (the request carries only them). */
  missing: AttributeDefinition[];
  /** The run's whole schema: its batch size is the run's. */
  schema: RecordSchema;
  prompts: PromptLibrary;
  model: string;
  prices: ModelPrices;
  documents: DocumentFiles;
  maxInputTokens?: number;
  loadTokenCounter: () => Promise<(text: string) => number>;
}

/**
 * What the back-fill will send, from the plan the run follows (core's `estimateExtractionUsage`):
 * each document is read as the run reads it, grouped by the run's batch size, and only the missing
 * attributes are in the prompt. A document that cannot be read costs no call (the run reports it).
 */
export async function estimateBackfill(options: EstimateBackfillOptions): Promise<BackfillEstimate> {
  const batchSize = resolveBatchSize(undefined, options.schema, true);
  const countTokens = await options.loadTokenCounter();
  const part = { title: options.schema.title, attributes: options.missing };
  const estimate = { calls: 0, promptTokens: 0, completionTokens: 0 };
  for (let start = 0; start < options.sources.length; start += batchSize) {
    const texts: string[] = [];
    for (const source of options.sources.slice(start, start + batchSize)) {
      const content = await options.documents.read(source).catch(() => undefined);
      if (content !== undefined && content.trim() !== '') texts.push(documentText(source, content));
    }
    if (texts.length === 0) continue;
    const usage = estimateExtractionUsage({
      prompts: options.prompts, schema: part, texts, withEvidence: true, maxInputTokens: options.maxInputTokens, maxDocumentsPerCall: batchSize, countTokens,
    });
    estimate.calls += usage.calls;
    estimate.promptTokens += usage.promptTokens;
    estimate.completionTokens += usage.completionTokens;
  }
  const price = findModelPrice(options.prices, options.model);
  const costUsd = price ? usageCost(estimate, price) : null;
  const cost = costUsd === null ? '' : ` (~${formatUsd(costUsd)})`;
  const text = `the back-fill extracts ${countNoun(options.sources.length, 'document')}: about ${countNoun(estimate.calls, 'call')}, `
    + `${estimate.promptTokens.toLocaleString('en-US')} prompt + ${estimate.completionTokens.toLocaleString('en-US')} completion tokens to ${options.model}${cost}`;
  return { documents: options.sources.length, ...estimate, costUsd, model: options.model, text };
}
