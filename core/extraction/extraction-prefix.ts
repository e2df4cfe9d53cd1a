import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';

export interface ExtractionPrefix {
  system: string;
  /** Counted on first read, then kept: a plan its ceiling decides never counts it (see `tokenCeiling`). */
  readonly tokens: number;
}

interface Entry extends ExtractionPrefix {
  prompts: PromptLibrary;
  variant: string;
  countTokens: (text: string) => number;
}

const bySchema = new WeakMap<RecordSchema, Entry[]>();

/**
 * The fixed system prompt of an extraction and its token count, computed once per schema rather
 * than once per document: it is identical for every document of a batch (that is what makes
 * providers' prompt caching apply), and counting ~1,700 tokens per document was pure overhead.
 */
export function extractionPrefix(
  schema: RecordSchema,
  prompts: PromptLibrary,
  variant: string,
  countTokens: (text: string) => number,
  render: () => string,
): ExtractionPrefix {
  const entries = bySchema.get(schema) ?? [];
  let entry = entries.find((candidate) => candidate.prompts === prompts && candidate.variant === variant && candidate.countTokens === countTokens);
  if (!entry) {
    const system = render();
    let tokens: number | undefined;
    entry = {
      prompts, variant, countTokens, system,
      get tokens() {
        tokens ??= countTokens(system);
        return tokens;
      },
    };
    entries.push(entry);
    bySchema.set(schema, entries);
  }
  return entry;
}
