import { ok, refused, shapeByMarkers, type DialectRules } from './dialect-rules.ts';

/**
 * LM Studio's OpenAI-compatible server (`http://localhost:1234/v1`): structured output only as
 * `response_format` `json_schema` (or `text`); `json_object` is refused with 400 and an error that
 * is a bare string, `{"error": "'response_format.type' must be 'json_schema' or 'text'"}`
 * (lmstudio-ai/lmstudio-bug-tracker#189 and #307, willmiao/ComfyUI-Lora-Manager#1033). The loaded
 * model answers whatever `model` names (what it says for a model it cannot load could not be verified).
 */
export function lmStudioDialect(): DialectRules {
  return {
    basePath: '/v1',
    refuse(request) {
      const format = (request.body.response_format as { type?: unknown } | undefined)?.type;
      if (format !== undefined && format !== 'json_schema' && format !== 'text') return refused(400, { error: "'response_format.type' must be 'json_schema' or 'text'" });
      return undefined;
    },
    asAnswered: (chat) => chat,
    errorBody: (_status, message) => ({ error: message }),
    reply: (body, request, content) => ok(shapeByMarkers(body, request.chat, content)),
  };
}
