import { tokenCeiling } from '../documents/token-ceiling.ts';
import type { ChatMessage } from '../ports/language-model.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { defaultMaxInputTokens } from './extraction-parts.ts';
import { extractionPrefix, type ExtractionPrefix } from './extraction-prefix.ts';
import { neverLongTokens, packBatches } from './pack-batches.ts';
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
  /** The batch system message and its tokens (counted when first read). */
  system: string;
  readonly systemTokens: number;
  /** The system message's `tokenCeiling`, computed once per system message, not once per call. */
  systemCeiling: number;
  /**
   * The system message as a chat message: one object for every plan of the same prompt, so that
   * its JSON text is written once for a run (see `messagesJsonTexts`), not once per call.
   */
  systemMessage: ChatMessage;
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
 * The most tokens those lines can be: their UTF-8 bytes (with a 16-character boundary and an id of
 * up to four digits, about 90) — and at least `entryTokens`, so that what fits by ceilings fits as counted.
 */
const entryCeiling = 128;

/** System messages' ceilings and messages by prefix (one per schema and prompts, kept as long as it is): a run plans a batch per group of documents. */
const systems = new WeakMap<ExtractionPrefix, { ceiling: number; message: ChatMessage }>();

/**
 * How `extractRecordBatch` will send `texts`: which share a call (see `packBatches`). What the run
 * sends and what an estimate counts come from this one plan.
 *
 * Tokens are counted only where their ceilings (`tokenCeiling`) do not decide: when every run of
 * `maxDocuments` consecutive short documents fits the budget beside the instructions by its
 * ceilings, it fits as counted too, and packing by counts would give those very calls.
 */
export function planBatchCalls(options: PlanBatchCallsOptions): BatchCallPlan {
  const { prompts, schema, withEvidence, countTokens } = options;
  const prefix = extractionPrefix(schema, prompts, `batch:${withEvidence}`, countTokens,
    () => renderBatchExtractionInstructions(prompts, schema, withEvidence));
  const budgetTokens = (options.maxInputTokens ?? defaultMaxInputTokens) - framingTokens;
  const maxDocuments = options.maxDocumentsPerCall ?? options.texts.length;
  let system = systems.get(prefix);
  if (system === undefined) {
    system = { ceiling: tokenCeiling(prefix.system), message: { role: 'system', content: prefix.system } };
    systems.set(prefix, system);
  }
  const { ceiling: systemCeiling, message: systemMessage } = system;
  const plan = (calls: number[][]): BatchCallPlan => ({ system: prefix.system, get systemTokens() { return prefix.tokens; }, systemCeiling, systemMessage, budgetTokens, calls });
  // Each document alone (one per call, or only one): nothing to pack, and no document's tokens to
  // count — counting every page of a one-document-per-call scan cost more than reading its reply.
  if (maxDocuments <= 1 || options.texts.length <= 1) return plan(options.texts.map((_, position) => [position]));
  const byCeilings = callsByCeilings(options.texts, systemCeiling, budgetTokens, maxDocuments);
  if (byCeilings) return plan(byCeilings);
  return plan(packBatches({
    documentTokens: options.texts.map((text) => countTokens(text) + entryTokens),
    instructionTokens: prefix.tokens,
    budgetTokens,
    maxDocuments,
  }));
}

/** Runs of `maxDocuments` in order when each fits the budget by its ceilings and holds only short documents; undefined otherwise. */
function callsByCeilings(texts: readonly string[], instructionCeiling: number, budgetTokens: number, maxDocuments: number): number[][] | undefined {
  const calls: number[][] = [];
  for (let start = 0; start < texts.length; start += maxDocuments) {
    const call: number[] = [];
    let tokens = instructionCeiling;
    for (let position = start; position < Math.min(texts.length, start + maxDocuments); position += 1) {
      const ceiling = tokenCeiling(texts[position]!);
      tokens += ceiling + entryCeiling;
      if (ceiling + entryTokens > neverLongTokens || tokens > budgetTokens) return undefined;
      call.push(position);
    }
    calls.push(call);
  }
  return calls;
}
