import type { LanguageModelRequest } from '../core/index.ts';
import { modelParameterRules } from './model-parameter-rules.ts';
import type { OutputMode, ParameterAdaptation } from './parameter-adaptations.ts';

/** How requests to an endpoint are asked beyond the messages: srag's settings, read late. */
export interface ChatRequestSettings {
  /** `reasoning_effort` for models that take it (`minimal`, `low`, `medium`, `high`; SRAG_REASONING_EFFORT). */
  reasoningEffort?: string;
  /** An output limit, as `max_tokens` or `max_completion_tokens` as the model takes it (SRAG_MAX_OUTPUT_TOKENS). */
  maxOutputTokens?: number;
}

/**
 * The request body in the chat-completions format (also each line of a Batch API input file).
 * Temperature 0, as extraction wants repeatable answers, where the model takes it; the output limit
 * and reasoning effort under the names the model takes (see `modelParameterRules`); then what the
 * endpoint was found to refuse for this model dropped or renamed (`adaptation`).
 */
export function chatCompletionRequest(
  model: string,
  request: LanguageModelRequest,
  mode: OutputMode,
  { settings = {}, adaptation }: { settings?: ChatRequestSettings; adaptation?: ParameterAdaptation } = {},
): Record<string, unknown> {
  const rules = modelParameterRules(model);
  const body: Record<string, unknown> = { model, messages: request.messages };
  if (rules.temperature) body.temperature = 0;
  if (settings.maxOutputTokens !== undefined) body[rules.maxTokensName] = settings.maxOutputTokens;
  if (settings.reasoningEffort !== undefined && rules.reasoningEffort) body.reasoning_effort = settings.reasoningEffort;
  if (request.outputSchema && mode === 'json_schema') {
    body.response_format = { type: 'json_schema', json_schema: { name: request.outputSchema.name, schema: request.outputSchema.schema, strict: true } };
  } else if (request.outputSchema && mode === 'json_object') {
    body.response_format = { type: 'json_object' };
  }
  if (adaptation) {
    for (const [parameter, replacement] of Object.entries(adaptation.renamed)) {
      if (!(parameter in body)) continue;
      body[replacement] = body[parameter];
      delete body[parameter];
    }
    for (const parameter of adaptation.dropped) delete body[parameter];
  }
  return body;
}
