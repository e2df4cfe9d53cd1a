import { createRequire } from 'node:module';

/**
 * Special-token markers such as `<|endoftext|>` that occur in a document are ordinary text to count;
 * gpt-tokenizer's default would throw on them.
 */
const plainTextOptions = { disallowedSpecial: new Set<string>() };

type Count = (text: string, options: typeof plainTextOptions) => number;
let countO200kTokens: Count | undefined;

/**
 * Exact token count of `text` in the o200k_base encoding (GPT-4o / GPT-4.1 / GPT-5 family). The
 * encoding's tables are loaded on the first count (~0.4 s of CPU and ~80 MB), not with this module:
 * a run whose documents all fit by their ceilings (`tokenCeiling`) never counts one. Loaded with
 * `require` (the package's CommonJS build), since a count is asked for synchronously.
 */
export function countTokens(text: string): number {
  countO200kTokens ??= (createRequire(import.meta.url)('gpt-tokenizer/encoding/o200k_base') as { countTokens: Count }).countTokens;
  return countO200kTokens(text, plainTextOptions);
}
