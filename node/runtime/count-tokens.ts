import { countTokens as countO200kTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * Special-token markers such as `<|endoftext|>` that occur in a document are ordinary text to count;
 * gpt-tokenizer's default would throw on them.
 */
const plainTextOptions = { disallowedSpecial: new Set<string>() };

/** Exact token count of `text` in the o200k_base encoding (GPT-4o / GPT-4.1 / GPT-5 family). */
export function countTokens(text: string): number {
  return countO200kTokens(text, plainTextOptions);
}
