import { plannedRecordTokens } from './automatic-batch-size.ts';
import { extractionParts } from './extraction-parts.ts';
import { planBatchCalls, type PlanBatchCallsOptions } from './plan-batch-calls.ts';
import { renderBatchDocuments } from './render-batch-documents.ts';

export interface ExtractionUsageEstimate {
  calls: number;
  /** The messages' tokens, exactly as the run renders them (the endpoint adds a few per message and for the output schema). */
  promptTokens: number;
  /** Planned, not known: `plannedRecordTokens` per record or part. */
  completionTokens: number;
}

/** The same as `planBatchCalls` takes: `maxDocumentsPerCall` is the run's resolved batch size. */
export type EstimateExtractionUsageOptions = PlanBatchCallsOptions;

/**
 * What extracting `texts` in one group costs before any call: the calls `extractRecordBatch` will
 * make (the same plan: shared calls, documents alone, long ones in parts) and the prompt tokens of
 * the very messages it will send, assuming every reply is usable (a split or a re-ask costs more).
 * Runtime-agnostic: `srag ingest --dry-run`, `--max-cost` and `srag ask --extend-schema --dry-run`.
 */
export function estimateExtractionUsage(options: EstimateExtractionUsageOptions): ExtractionUsageEstimate {
  const { texts, countTokens } = options;
  const recordTokens = plannedRecordTokens(options.schema, options.withEvidence);
  const plan = planBatchCalls(options);
  const estimate: ExtractionUsageEstimate = { calls: 0, promptTokens: 0, completionTokens: 0 };
  for (const call of plan.calls) {
    if (call.length > 1) {
      const user = renderBatchDocuments(call.map((position, index) => ({ id: String(index + 1), text: texts[position]! })));
      estimate.calls += 1;
      estimate.promptTokens += plan.systemTokens + countTokens(user);
      estimate.completionTokens += call.length * recordTokens;
      continue;
    }
    const parts = extractionParts({ ...options, text: texts[call[0]!]! });
    estimate.calls += parts.messages.length;
    for (const message of parts.messages) estimate.promptTokens += parts.instructionTokens + countTokens(message);
    estimate.completionTokens += parts.messages.length * recordTokens;
  }
  return estimate;
}
