import type { PlannedResponse } from '../fault-response.ts';
import { bearerKey, ok, refused, shapeByMarkers, type DialectRules } from './dialect-rules.ts';

/** The request fields Gemini's OpenAI endpoint takes (https://ai.google.dev/gemini-api/docs/openai); any other is refused by name. */
const knownFields = new Set([
  'model', 'messages', 'temperature', 'top_p', 'n', 'stream', 'stream_options', 'stop', 'max_tokens', 'max_completion_tokens',
  'response_format', 'reasoning_effort', 'tools', 'tool_choice', 'seed', 'presence_penalty', 'frequency_penalty', 'extra_body',
]);
/** A key the stand-in's Gemini takes as invalid, for the test of a key it refuses. */
export const geminiInvalidKey = 'AIza-not-a-valid-key';

/**
 * Gemini's OpenAI-compatible endpoint (`https://generativelanguage.googleapis.com/v1beta/openai/`,
 * https://ai.google.dev/gemini-api/docs/openai). Its errors are a JSON list,
 * `[{"error": {"code": 400, "message", "status": "INVALID_ARGUMENT", …}}]`:
 * - a field it does not take: "Invalid JSON payload received. Unknown name \"reasoning\": Cannot
 *   find field." (SuzumiyaAkizuki/ComfyUI-NewBie-LLM-Formatter#3, Alishahryar1/free-claude-code#542);
 * - a key it does not know: 400, not 401, "API key not valid. Please pass a valid API key." (its
 *   native API's words, google/timesketch#3703; that the OpenAI endpoint says the same, in a list,
 *   could not be verified);
 * - Gemini 3 models refuse `reasoning_effort` "medium" and "minimal" (Google AI forum, "Gemini 3
 *   Preview (OpenAI-compatible) rejects reasoning_effort: medium — works with low and high"); the
 *   words of that refusal could not be verified: the stand-in's name the value, not the field.
 */
export function geminiOpenAiDialect(): DialectRules {
  return {
    basePath: '/v1beta/openai',
    refuse(request) {
      const key = bearerKey(request);
      if (!key || key === geminiInvalidKey) return geminiError(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT');
      const unknown = Object.keys(request.body).find((field) => !knownFields.has(field));
      if (unknown) return geminiError(400, `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`, 'INVALID_ARGUMENT');
      const effort = request.body.reasoning_effort;
      if (/^gemini-3/.test(request.chat.model) && (effort === 'medium' || effort === 'minimal')) {
        return geminiError(400, `Thinking level ${String(effort)} is not supported for this model.`, 'INVALID_ARGUMENT');
      }
      return undefined;
    },
    asAnswered: (chat) => chat,
    errorBody: (status, message) => [{ error: { code: status, message, status: 'INVALID_ARGUMENT' } }],
    reply: (body, request, content) => ok(shapeByMarkers(body, request.chat, content)),
  };
}

function geminiError(status: number, message: string, code: string): PlannedResponse {
  return refused(status, [{ error: { code: status, message, status: code } }]);
}
