import { defaultMaxInputTokens, renderExtractionInstructions } from '../extraction/extract-record.ts';
import { extractionPrefix } from '../extraction/extraction-prefix.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';

export interface ExtractionCallEstimate {
  calls: number;
  promptTokens: number;
}

/**
 * About how many model calls (and prompt tokens) extracting `text` alone takes: a document over
 * the input budget is split into parts of what the budget leaves beside the instructions, one call
 * each. `undefined` when it certainly needs fewer than `threshold` calls — decided from its length
 * alone (a token is at least one UTF-8 byte, at most three per UTF-16 unit), so short documents
 * never load the tokenizer.
 */
export async function estimateExtractionCalls(options: {
  text: string;
  schema: RecordSchema;
  prompts: PromptLibrary;
  withEvidence: boolean;
  maxInputTokens?: number;
  threshold: number;
  loadTokenCounter: () => Promise<(text: string) => number>;
}): Promise<ExtractionCallEstimate | undefined> {
  const maxInputTokens = options.maxInputTokens ?? defaultMaxInputTokens;
  if (options.text.length * 3 <= options.threshold * maxInputTokens / 2) return undefined;
  const countTokens = await options.loadTokenCounter();
  const prefix = extractionPrefix(options.schema, options.prompts, `single:${options.withEvidence}`, countTokens,
    () => renderExtractionInstructions(options.prompts, options.schema, options.withEvidence));
  const partTokens = Math.max(1, maxInputTokens - prefix.tokens);
  const tokens = countTokens(options.text);
  const calls = Math.max(1, Math.ceil(tokens / partTokens));
  return calls > options.threshold ? { calls, promptTokens: tokens + calls * prefix.tokens } : undefined;
}
