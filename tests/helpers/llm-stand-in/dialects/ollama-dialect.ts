import { ok, openAiError, refused, shapeByMarkers, type DialectRules } from './dialect-rules.ts';

/** The models the stand-in's Ollama has pulled. */
export const ollamaModels: readonly string[] = ['srag-stand-in', 'llama3.1', 'llama3.1:8b', 'qwen3:8b'];

/**
 * Ollama's OpenAI compatibility (https://docs.ollama.com/api/openai-compatibility): no key needed
 * (the client's is ignored); `response_format` supported, `json_schema` enforced since 0.5.0
 * (pydantic-ai's Ollama model page: "Self-hosted Ollama (v0.5.0+) honors response_format with
 * json_schema"); `reasoning_effort` taken by thinking models; other fields it does not list are
 * ignored (a Go decoder drops unknown fields: not verified for every version). A model not pulled:
 * 404 `model "x" not found, try pulling it first`, type `api_error` (netease-youdao/QAnything#555).
 * A prompt over `num_ctx` is cut by Ollama rather than refused (widely reported, not verified
 * here): the stand-in answers it.
 */
export function ollamaDialect(): DialectRules {
  return {
    basePath: '/v1',
    refuse(request) {
      if (!ollamaModels.includes(request.chat.model)) return refused(404, openAiError(`model "${request.chat.model}" not found, try pulling it first`, 'api_error'));
      return undefined;
    },
    asAnswered: (chat) => chat,
    errorBody: (_status, message, type, param) => openAiError(message, type, param),
    reply: (body, request, content) => ok({ ...shapeByMarkers(body, request.chat, content), system_fingerprint: 'fp_ollama' }),
  };
}
