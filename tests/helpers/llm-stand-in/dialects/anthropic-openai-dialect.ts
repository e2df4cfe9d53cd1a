import { bearerKey, ok, refused, shapeByMarkers, type DialectRules } from './dialect-rules.ts';

/**
 * Anthropic's OpenAI SDK compatibility (`https://api.anthropic.com/v1/`,
 * https://docs.anthropic.com/en/api/openai-sdk): `response_format`, `reasoning_effort`, `seed` and
 * others are ignored, `strict` too, so a reply is not held to a schema — the model writes its JSON
 * as it likes, the stand-in in a sentence and a fenced block; `temperature` between 0 and 1; `n`
 * exactly 1. A later public report says the layer refused a `json_schema` without `strict: true`
 * (steilerDev/cornerstone#1561): srag always sends `strict: true`, so either way it is accepted.
 * Errors in Anthropic's own shape, `{"type": "error", "error": {"type", "message"}}`; an unknown
 * model gets `not_found_error` "model: x" (that the compatibility layer words it so could not be
 * verified).
 */
export function anthropicOpenAiDialect(): DialectRules {
  return {
    basePath: '/v1',
    refuse(request) {
      if (!bearerKey(request)) return anthropicError(401, 'authentication_error', 'invalid x-api-key');
      if (!/^(?:claude-|srag-stand-in)/.test(request.chat.model)) return anthropicError(404, 'not_found_error', `model: ${request.chat.model}`);
      if (typeof request.body.n === 'number' && request.body.n !== 1) return anthropicError(400, 'invalid_request_error', 'n: must be 1');
      return undefined;
    },
    // The schema is ignored: the model answers as it would without one.
    asAnswered: (chat) => ({ ...chat, responseFormat: undefined }),
    errorBody: (status, message) => ({ type: 'error', error: { type: status === 404 ? 'not_found_error' : 'invalid_request_error', message } }),
    reply: (body, request, content) => ok(shapeByMarkers(body, request.chat, content)),
  };
}

function anthropicError(status: number, type: string, message: string) {
  return refused(status, { type: 'error', error: { type, message } });
}
