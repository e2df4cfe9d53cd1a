import { stat } from 'node:fs/promises';
import { approximateTokenCount, countNoun, renderExtractionInstructions, type AttributeDefinition, type PromptLibrary } from '../../core/index.ts';

/** What a back-fill will cost, said before it starts (SRAG_CONFIRM_DOCUMENTS decides when to ask). */
export interface BackfillEstimate {
  documents: number;
  /** About one request per document: only the missing attributes. */
  calls: number;
  promptTokens: number;
  model: string;
  /** One line: "the back-fill extracts N documents: about N calls and T prompt tokens to MODEL". */
  text: string;
}

/**
 * About one call per document: its text (the file's size at four bytes a token, read from the file
 * system without reading the file) plus the instructions for only the missing attributes.
 */
export async function estimateBackfill(sources: readonly string[], missing: AttributeDefinition[], prompts: PromptLibrary, model: string): Promise<BackfillEstimate> {
  let bytes = 0;
  for (const source of sources) bytes += await stat(source).then((found) => found.size, () => 0);
  const instructions = approximateTokenCount(renderExtractionInstructions(prompts, { title: 'target', attributes: missing }, true));
  const promptTokens = Math.round(bytes / 4) + sources.length * instructions;
  const text = `the back-fill extracts ${countNoun(sources.length, 'document')}: about ${countNoun(sources.length, 'call')} and ${promptTokens.toLocaleString('en-US')} prompt tokens to ${model}`;
  return { documents: sources.length, calls: sources.length, promptTokens, model, text };
}
