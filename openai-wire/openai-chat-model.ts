import { LanguageModelError, type LanguageModel, type LanguageModelRequest, type LanguageModelResponse } from '../core/index.ts';
import { chatCompletionRequest } from './chat-completion-request.ts';
import { chatRequestText } from './chat-request-text.ts';
import type { OutputMode } from './parameter-adaptations.ts';
import { readChatCompletion, type ChatCompletionBody } from './read-chat-completion.ts';
import type { OpenAiWire } from './openai-wire.ts';

/** A 400 that names the output format: the endpoint does not do structured output that way. */
const formatRejection = /response_format|json_schema|json_object|structured/i;
/** Parameters srag may stop sending, or send under another name, when an endpoint refuses them. */
const adaptableParameters = new Set(['temperature', 'max_tokens', 'max_completion_tokens', 'reasoning_effort']);
const nextMode: Record<OutputMode, OutputMode> = { json_schema: 'json_object', json_object: 'none', none: 'none' };

/**
 * Core's language-model port over `chat/completions`: OpenAI, Azure OpenAI, Ollama, vLLM,
 * llama.cpp server, LM Studio, Gemini's and Anthropic's OpenAI-compatible endpoints and OpenRouter
 * all speak it. The request fits the model (see `chatCompletionRequest`); what the endpoint still
 * refuses is learned, for the endpoint and model, and the request asked again:
 * - a 400 (or 422) naming a parameter srag sent (`temperature`, `max_tokens`, `reasoning_effort`):
 *   the parameter is dropped, or renamed when the endpoint says what to use instead, once per
 *   parameter and request;
 * - a 400 about the output format (`response_format: json_schema` on an endpoint without
 *   structured output): `json_object`, then plain text (core reads JSON tolerantly).
 * What was learned applies to every later request for that model, the Batch API's lines included
 * (the wire's `adaptations`). Retries are core's model client's: this only asks again after
 * adapting, and says through the error whether another try may help.
 */
export class OpenAiChatModel implements LanguageModel {
  /** The endpoint as a reply's origin: part of every cache key (see `LanguageModel.endpoint`). */
  readonly endpoint: string;

  constructor(private readonly wire: OpenAiWire, readonly modelId: string) {
    this.endpoint = wire.identity;
  }

  async doGenerate(request: LanguageModelRequest): Promise<LanguageModelResponse> {
    const model = request.model ?? this.modelId;
    const adapted = new Set<string>();
    for (;;) {
      const adaptation = this.wire.adaptations.for(model);
      const mode: OutputMode = request.outputSchema ? adaptation.outputMode ?? 'json_schema' : 'none';
      const body = chatCompletionRequest(model, request, mode, { settings: this.wire.requestSettings, adaptation });
      let reply: ChatCompletionBody;
      try {
        reply = await this.wire.postJsonText('chat/completions', chatRequestText(body, request), { model, signal: request.abortSignal }) as ChatCompletionBody;
      } catch (error) {
        if (!LanguageModelError.isInstance(error) || (error.status !== 400 && error.status !== 422) || error.aboutDocument) throw error;
        const refused = error.refusedParameter;
        if (refused && adaptableParameters.has(refused.name) && refused.name in body && !adapted.has(refused.name)) {
          adapted.add(refused.name);
          this.wire.adaptations.learn(model, refused.replacement && refused.replacement !== refused.name && !(refused.replacement in body)
            ? { kind: 'renamed', parameter: refused.name, replacement: refused.replacement }
            : { kind: 'dropped', parameter: refused.name });
          continue;
        }
        if (mode !== 'none' && formatRejection.test(error.message)) {
          this.wire.adaptations.learn(model, { kind: 'output-mode', outputMode: nextMode[mode] });
          continue;
        }
        throw error;
      }
      return readChatCompletion(reply, model, this.wire.failures, request.messages);
    }
  }
}
