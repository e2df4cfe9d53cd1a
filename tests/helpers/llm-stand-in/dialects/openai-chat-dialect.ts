import { carries, dialectMarkers, ok, openAiError, refused, shapeByMarkers, bearerKey, type DialectRequest, type DialectRules } from './dialect-rules.ts';

/**
 * OpenAI's chat models (gpt-4o-mini, gpt-4.1): the stand-in's plain behaviour, with OpenAI's own
 * refusals —
 * - no key: 401 `invalid_api_key` (the shape of https://platform.openai.com/docs/guides/error-codes);
 * - `reasoning_effort` on a model without reasoning: "Unrecognized request argument supplied:
 *   reasoning_effort", param and code null (davidmigloz/langchain_dart#712);
 * - a prompt over the context: 400 `context_length_exceeded`, param `messages` (rahul2002m/ChatPDF#6);
 * - a structured-output refusal in `message.refusal` with no content
 *   (https://platform.openai.com/docs/guides/structured-outputs#refusals, MacPaw/OpenAI#249);
 * - a filtered completion: `finish_reason: "content_filter"`.
 * Replies carry `refusal: null` and `completion_tokens_details`, as OpenAI's do.
 */
export function openAiChatDialect(): DialectRules {
  return {
    basePath: '/v1',
    refuse: (request) => refuseAsOpenAi(request, { reasoning: false }),
    asAnswered: (chat) => chat,
    errorBody: (_status, message, type, param) => openAiError(message, type, param),
    reply: (body, request, content) => ok(replyAsOpenAi(body, request, content)),
  };
}

/** OpenAI's refusals before answering, for chat and reasoning models alike. */
export function refuseAsOpenAi(request: DialectRequest, { reasoning }: { reasoning: boolean }) {
  if (!bearerKey(request)) {
    return refused(401, openAiError("You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", 'invalid_request_error', null, 'invalid_api_key'));
  }
  if (!reasoning && 'reasoning_effort' in request.body) return refused(400, openAiError('Unrecognized request argument supplied: reasoning_effort', 'invalid_request_error'));
  if (carries(request.chat, dialectMarkers.tooLong)) {
    return refused(400, openAiError("This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.", 'invalid_request_error', 'messages', 'context_length_exceeded'));
  }
  return undefined;
}

/** OpenAI's reply shape, with the markers' refusal and content filter. */
export function replyAsOpenAi(body: Record<string, unknown>, request: DialectRequest, content: string): Record<string, unknown> {
  const shaped = shapeByMarkers(body, request.chat, content) as { choices: Array<{ message: Record<string, unknown>; finish_reason: string }>; usage?: Record<string, unknown> };
  const choice = shaped.choices[0]!;
  choice.message.refusal ??= null;
  choice.message.annotations = [];
  if (carries(request.chat, dialectMarkers.refusal)) Object.assign(choice.message, { content: null, refusal: "I'm sorry, I can't assist with that request." });
  if (carries(request.chat, dialectMarkers.contentFilter)) Object.assign(choice, { finish_reason: 'content_filter' }), (choice.message.content = null);
  if (shaped.usage) shaped.usage.completion_tokens_details ??= { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 };
  return shaped as unknown as Record<string, unknown>;
}
