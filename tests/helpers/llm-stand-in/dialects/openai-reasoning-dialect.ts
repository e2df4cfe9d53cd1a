import { ok, openAiError, refused, type DialectRequest, type DialectRules } from './dialect-rules.ts';
import { refuseAsOpenAi, replyAsOpenAi } from './openai-chat-dialect.ts';

/** Reasoning tokens a reply spends by `reasoning_effort` (medium when none is sent); invented sizes, kept small. */
const reasoningByEffort: Record<string, number> = { none: 0, minimal: 16, low: 64, medium: 256, high: 1024 };

/**
 * OpenAI's reasoning models (gpt-5, gpt-5-mini, o3, o3-mini, o4-mini), each refusal as public
 * threads quote it:
 * - `temperature` other than 1: "Unsupported value: 'temperature' does not support 0 with this
 *   model. Only the default (1) value is supported." code `unsupported_value` (gpt-5-mini:
 *   QwenLM/qwen-code#921; gabrii/Cursor-Azure-GPT-5#33); o3-mini and o1-mini words it "Unsupported
 *   parameter: 'temperature' is not supported with this model." code `unsupported_parameter`
 *   (chatboxai/chatbox#1830, livekit/agents#1470);
 * - `max_tokens`: "Unsupported parameter: 'max_tokens' is not supported with this model. Use
 *   'max_completion_tokens' instead." (griptape-ai/ComfyUI-Griptape#312);
 * - `reasoning_effort` takes minimal, low, medium and high (the exact words of its refusal of another
 *   value could not be verified here; the stand-in's are OpenAI's usual `invalid_value` shape).
 * Replies count `completion_tokens_details.reasoning_tokens` within `completion_tokens`; a
 * `max_completion_tokens` smaller than reasoning plus answer ends the reply with `finish_reason:
 * "length"` and empty content, every token spent reasoning (BerriAI/litellm-docs#559,
 * pvliesdonk/markdown-vault-mcp#919 with gpt-5-mini).
 */
export function openAiReasoningDialect(): DialectRules {
  return {
    basePath: '/v1',
    refuse: refuseAsReasoningModel,
    asAnswered: (chat) => chat,
    errorBody: (_status, message, type, param) => openAiError(message, type, param),
    reply: (body, request, content) => ok(reasoningReply(body, request, content)),
  };
}

export function refuseAsReasoningModel(request: DialectRequest) {
  const first = refuseAsOpenAi(request, { reasoning: true });
  if (first) return first;
  const { body, chat } = request;
  if ('temperature' in body && body.temperature !== 1) {
    return /^(?:o1-mini|o3-mini)/.test(chat.model)
      ? refused(400, openAiError("Unsupported parameter: 'temperature' is not supported with this model.", 'invalid_request_error', 'temperature', 'unsupported_parameter'))
      : refused(400, openAiError(`Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`, 'invalid_request_error', 'temperature', 'unsupported_value'));
  }
  if ('max_tokens' in body) {
    return refused(400, openAiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", 'invalid_request_error', 'max_tokens', 'unsupported_parameter'));
  }
  if ('reasoning_effort' in body && !(String(body.reasoning_effort) in reasoningByEffort)) {
    return refused(400, openAiError(`Invalid value: '${String(body.reasoning_effort)}'. Supported values are: 'minimal', 'low', 'medium', and 'high'.`, 'invalid_request_error', 'reasoning_effort', 'invalid_value'));
  }
  return undefined;
}

/** The reply with its reasoning tokens, or cut at `max_completion_tokens` with nothing to show. */
export function reasoningReply(body: Record<string, unknown>, request: DialectRequest, content: string): Record<string, unknown> {
  const shaped = replyAsOpenAi(body, request, content) as { choices: Array<{ message: Record<string, unknown>; finish_reason: string }>; usage?: Record<string, number | Record<string, number>> };
  const reasoning = reasoningByEffort[String(request.body.reasoning_effort ?? 'medium')] ?? 256;
  const answer = Math.ceil(content.length / 4);
  const budget = typeof request.body.max_completion_tokens === 'number' ? request.body.max_completion_tokens : Number.POSITIVE_INFINITY;
  const cut = reasoning + answer > budget;
  if (cut) {
    shaped.choices[0]!.message.content = '';
    shaped.choices[0]!.finish_reason = 'length';
  }
  if (shaped.usage) {
    const completion = cut ? budget : reasoning + answer;
    const prompt = shaped.usage.prompt_tokens as number;
    Object.assign(shaped.usage, { completion_tokens: completion, total_tokens: prompt + completion, completion_tokens_details: { reasoning_tokens: cut ? budget : reasoning, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } });
  }
  return shaped as unknown as Record<string, unknown>;
}
