import type { AnswerBody } from './api-types.ts';

/**
 * What answering cost, as the page says it: "from cache" when no model call was made (the tokens
 * counted are the cached replies', spent before), else the calls and their tokens.
 */
export function describeUsage(usage: AnswerBody['usage']): string {
  if (usage.calls === 0) return 'from cache (no model call)';
  const calls = `${usage.calls} model ${usage.calls === 1 ? 'call' : 'calls'}`;
  return `${calls}, ${usage.promptTokens.toLocaleString('en-US')} prompt + ${usage.completionTokens.toLocaleString('en-US')} completion tokens`;
}
