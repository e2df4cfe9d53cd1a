import type { ChatRequest } from './chat-request.ts';

/** The stand-in's only model id. */
export const standInModelId = 'srag-stand-in';

/** Token counts as ceil(characters / 4): close enough for usage accounting in tests. */
function tokensOf(characters: number): number {
  return Math.ceil(characters / 4);
}

let completionCounter = 0;

/**
 * A non-streaming `chat.completion` body. `cachedPrefixCharacters` (the characters of the prompt
 * the server has seen before) becomes `usage.prompt_tokens_details.cached_tokens`, as OpenAI
 * reports prompt caching.
 */
export function chatCompletionBody(request: ChatRequest, content: string, cachedPrefixCharacters = 0): Record<string, unknown> {
  const promptTokens = tokensOf(request.messages.reduce((sum, message) => sum + message.content.length, 0));
  const cachedTokens = Math.min(promptTokens, Math.floor(cachedPrefixCharacters / 4));
  const completionTokens = tokensOf(content.length);
  completionCounter += 1;
  return {
    id: `chatcmpl-stand-in-${completionCounter}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens,
      prompt_tokens_details: { cached_tokens: cachedTokens },
    },
  };
}

/** An OpenAI-style error body. */
export function errorBody(message: string, type: string, param: string | null = null, code: string | null = null): Record<string, unknown> {
  return { error: { message, type, param, code } };
}

export function modelsBody(): Record<string, unknown> {
  return { object: 'list', data: [{ id: standInModelId, object: 'model', created: 0, owned_by: 'srag-tests' }] };
}
