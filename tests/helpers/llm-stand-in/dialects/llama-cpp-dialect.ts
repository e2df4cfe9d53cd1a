import { carries, dialectMarkers, ok, refused, shapeByMarkers, type DialectRules } from './dialect-rules.ts';

/**
 * llama.cpp's `llama-server` (https://github.com/ggml-org/llama.cpp/tree/master/tools/server): one
 * loaded model answers whatever `model` names; `response_format` `json_schema` becomes a grammar
 * (ggml-org/llama.cpp#11847); errors carry a numeric `code`: `{"error": {"code": 400, "message",
 * "type": "invalid_request_error"}}` (same issue). A prompt over the context size: 400
 * `exceed_context_size_error` with `n_prompt_tokens` and `n_ctx` (oobabooga/textgen#7257,
 * ggml-org/llama.cpp#15780). Fields it does not know are ignored (not verified for every build).
 */
export function llamaCppDialect(): DialectRules {
  return {
    basePath: '/v1',
    refuse(request) {
      if (carries(request.chat, dialectMarkers.tooLong)) {
        return refused(400, { error: { code: 400, message: 'the request exceeds the available context size. try increasing the context size or enable context shift', type: 'exceed_context_size_error', n_prompt_tokens: 14429, n_ctx: 8192 } });
      }
      return undefined;
    },
    asAnswered: (chat) => chat,
    errorBody: (status, message) => ({ error: { code: status, message, type: 'invalid_request_error' } }),
    reply: (body, request, content) => ok({ ...shapeByMarkers(body, request.chat, content), model: 'gpt-3.5-turbo', system_fingerprint: 'b7786-llama.cpp' }),
  };
}
