import type { PlannedResponse } from '../fault-response.ts';
import { carries, dialectMarkers, ok, refused, shapeByMarkers, type DialectRules } from './dialect-rules.ts';

/** The one model the stand-in's vLLM serves (`vllm serve … --served-model-name`). */
export const vllmServedModel = 'srag-stand-in';

/**
 * vLLM's OpenAI-compatible server (https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html):
 * structured output through `response_format` `json_schema` (xgrammar or guidance,
 * https://docs.vllm.ai/en/latest/features/structured_outputs/); `reasoning_effort` passed to the
 * chat template. Its errors before 0.10.1 are flat, `{"object": "error", "message", "type",
 * "param", "code"}` (the nested shape since: vllm-project/vllm#22099); the stand-in sends the
 * flat one, which endpoints still run:
 * - a model it does not serve: 404 "The model `x` does not exist." (vllm-project/vllm#3485);
 * - a prompt over the context: 400 "This model's maximum context length is 2048 tokens. However,
 *   you requested … tokens" (vllm-project/vllm#12886).
 * With automatic tool choice on, a model may answer with a tool call (the stand-in does so for the
 * tool-call marker; how often real models do could not be measured here).
 */
export function vllmDialect(): DialectRules {
  return {
    basePath: '/v1',
    refuse(request) {
      if (request.chat.model !== vllmServedModel) return flatError(404, `The model \`${request.chat.model}\` does not exist.`, 'NotFoundError');
      if (carries(request.chat, dialectMarkers.tooLong)) {
        return flatError(400, "This model's maximum context length is 8192 tokens. However, you requested 9216 tokens (8192 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.", 'BadRequestError');
      }
      return undefined;
    },
    asAnswered: (chat) => chat,
    errorBody: (status, message) => ({ object: 'error', message, type: 'BadRequestError', param: null, code: status }),
    reply: (body, request, content) => ok(shapeByMarkers(body, request.chat, content)),
  };
}

function flatError(status: number, message: string, type: string): PlannedResponse {
  return refused(status, { object: 'error', message, type, param: null, code: status });
}
