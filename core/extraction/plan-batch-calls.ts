import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { defaultMaxInputTokens } from './extraction-parts.ts';
import { extractionPrefix } from './extraction-prefix.ts';
import { packBatches } from './pack-batches.ts';
import { renderBatchExtractionInstructions } from './render-batch-extraction-instructions.ts';

export interface PlanBatchCallsOptions {
  prompts: PromptLibrary;
  schema: RecordSchema;
  /** The documents as prompt text (see `documentText`). */
  texts: readonly string[];
  withEvidence: boolean;
  /** The input budget (SRAG_MAX_INPUT_TOKENS). */
  maxInputTokens?: number;
  /** The most documents in one call (default: as many as the budget allows). */
  maxDocumentsPerCall?: number;
  countTokens: (text: string) => number;
}

export interface BatchCallPlan {
  /** The batch system message and its tokens. */
  system: string;
  systemTokens: number;
  /** The most prompt tokens a batch call may have. */
  budgetTokens: number;
  /** Positions of `texts`, one array per call; a call of one document takes the one-document path. */
  calls: number[][];
}

/** Room left for the reply and the message framing, out of the input budget. */
const framingTokens = 200;
/** Tokens of the lines that delimit one document in a batch (`<document id="12" boundary="srag-…">`). */
const entryTokens = 32;

/**
 * How `extractRecordBatch` will send `texts`: which share a call (see `packBatches`). What the run
 * sends and what an estimate counts come from this one plan.
 */
export function planBatchCalls(options: PlanBatchCallsOptions): BatchCallPlan {
  const { prompts, schema, withEvidence, countTokens } = options;
  const { system, tokens: systemTokens } = extractionPrefix(schema, prompts, `batch:${withEvidence}`, countTokens,
    () => renderBatchExtractionInstructions(prompts, schema, withEvidence));
  const budgetTokens = (options.maxInputTokens ?? defaultMaxInputTokens) - framingTokens;
  const maxDocuments = options.maxDocumentsPerCall ?? options.texts.length;
  // Each document alone (one per call, or only one): nothing to pack, and no document's tokens to
  // count — counting every page of a one-document-per-call scan cost more than reading its reply.
  if (maxDocuments <= 1 || options.texts.length <= 1) return { system, systemTokens, budgetTokens, calls: options.texts.map((_, position) => [position]) };
  const calls = packBatches({
    documentTokens: options.texts.map((text) => countTokens(text) + entryTokens),
    instructionTokens: systemTokens,
    budgetTokens,
    maxDocuments,
  });
  return { system, systemTokens, budgetTokens, calls };
}
