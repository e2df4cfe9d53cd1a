import type { TokenUsage } from '../ports/language-model.ts';

/** Adds `more` into `total`; cached prompt and reasoning tokens are counted once either side reports them. */
export function addUsage(total: TokenUsage, more: TokenUsage): void {
  total.promptTokens += more.promptTokens;
  total.completionTokens += more.completionTokens;
  if (more.cachedPromptTokens !== undefined) total.cachedPromptTokens = (total.cachedPromptTokens ?? 0) + more.cachedPromptTokens;
  if (more.reasoningTokens !== undefined) total.reasoningTokens = (total.reasoningTokens ?? 0) + more.reasoningTokens;
}
