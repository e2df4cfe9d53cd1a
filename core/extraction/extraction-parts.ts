import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import { splitDocument } from '../documents/split-document.ts';
import { tokenCeiling } from '../documents/token-ceiling.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { extractionPrefix } from './extraction-prefix.ts';
import { renderExtractionInstructions } from './render-extraction-instructions.ts';

export interface ExtractionPartsOptions {
  prompts: PromptLibrary;
  schema: RecordSchema;
  /** The document as prompt text (see `documentText`). */
  text: string;
  withEvidence?: boolean;
  /** The extraction input budget (SRAG_MAX_INPUT_TOKENS). */
  maxInputTokens?: number;
  countTokens?: (text: string) => number;
}

export interface ExtractionParts {
  /** The system message every part is sent with: instructions and schema. */
  system: string;
  /** Tokens of `system` (counted when first read). */
  readonly instructionTokens: number;
  /** The most tokens a part may have: the input budget less the instructions and the message framing (counted when first read). */
  readonly partTokens: number;
  /** The document's parts, in order (one when it fits). */
  parts: string[];
  /** The user message of each part, exactly as sent: the part inside its `<document>` element. */
  messages: string[];
}

/** The extraction input budget when SRAG_MAX_INPUT_TOKENS is not set. */
export const defaultMaxInputTokens = 24_000;

/** Room left for the reply and the message framing, out of the input budget. */
const framingTokens = 200;
const minimumPartTokens = 500;

/**
 * How one document goes to the model in `extractRecord`: the fixed instructions as the system
 * message, and the document in as many balanced parts as the input budget requires, each wrapped
 * as a user message (`<document part="2" of="3">`). `srag text --parts` prints exactly this.
 */
export function extractionParts(options: ExtractionPartsOptions): ExtractionParts {
  const { prompts, schema, text } = options;
  const withEvidence = options.withEvidence ?? true;
  const countTokens = options.countTokens ?? approximateTokenCount;
  const prefix = extractionPrefix(schema, prompts, `single:${withEvidence}`, countTokens, () => renderExtractionInstructions(prompts, schema, withEvidence));
  const maxInputTokens = options.maxInputTokens ?? defaultMaxInputTokens;
  const partTokens = () => Math.max(minimumPartTokens, maxInputTokens - prefix.tokens - framingTokens);
  // A text that fits beside the instructions by their ceilings fits as counted: neither is counted
  // (an o200k count was about a millisecond per document of a scan).
  const parts = tokenCeiling(text) <= maxInputTokens - tokenCeiling(prefix.system) - framingTokens ? [text] : splitDocument(text, partTokens(), countTokens);
  const messages = parts.map((part, index) => (parts.length === 1
    ? `<document>\n${part}\n</document>`
    : `<document part="${index + 1}" of="${parts.length}">\n${part}\n</document>`));
  return { system: prefix.system, get instructionTokens() { return prefix.tokens; }, get partTokens() { return partTokens(); }, parts, messages };
}
