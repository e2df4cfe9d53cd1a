import { LanguageModelError, type LanguageModel, type LanguageModelRequest, type LanguageModelResponse } from '../core/index.ts';
import type { OpenAiWire } from './openai-wire.ts';

/** How structured output is asked for; an endpoint without one gets the next mode down. */
export type OutputMode = 'json_schema' | 'json_object' | 'none';

/** Only the fields read from a chat completion. */
export interface ChatCompletionBody {
  model?: string;
  choices?: Array<{ message?: { content?: string | null } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } | null };
}

/** A 400 that names the output format: the endpoint does not do structured output that way. */
const formatRejection = /response_format|json_schema|json_object|structured/i;

/**
 * Core's language-model port over `chat/completions`: OpenAI, Ollama, vLLM, llama.cpp server and
 * LM Studio all speak it. Endpoints without structured output refuse `response_format:
 * json_schema` with a 400; the model then asks with `json_object`, then in plain text (core reads
 * JSON tolerantly), and keeps the mode that worked for later requests. Retries are core's model
 * client's: this only asks once and says, through the error, whether another try may help.
 */
export class OpenAiChatModel implements LanguageModel {
  private outputMode: OutputMode = 'json_schema';

  constructor(private readonly wire: OpenAiWire, readonly modelId: string) {}

  async doGenerate(request: LanguageModelRequest): Promise<LanguageModelResponse> {
    const model = request.model ?? this.modelId;
    for (;;) {
      const mode = request.outputSchema ? this.outputMode : 'none';
      let body: ChatCompletionBody;
      try {
        body = await this.wire.postJson('chat/completions', chatCompletionRequest(model, request, mode), { model, signal: request.abortSignal }) as ChatCompletionBody;
      } catch (error) {
        if (mode !== 'none' && LanguageModelError.isInstance(error) && error.status === 400 && formatRejection.test(error.message)) {
          this.outputMode = mode === 'json_schema' ? 'json_object' : 'none';
          continue;
        }
        throw error;
      }
      return readChatCompletion(body, model);
    }
  }
}

/** A chat completion as core's port answers it (also each line of a Batch API output file). */
export function readChatCompletion(body: ChatCompletionBody, model: string): LanguageModelResponse {
  return {
    text: body.choices?.[0]?.message?.content ?? '',
    model: body.model ?? model,
    usage: readUsage(body.usage),
  };
}

/** The request body in the chat-completions format; temperature 0, as extraction wants repeatable answers. */
export function chatCompletionRequest(model: string, request: LanguageModelRequest, mode: OutputMode): Record<string, unknown> {
  const body: Record<string, unknown> = { model, messages: request.messages, temperature: 0 };
  if (request.outputSchema && mode === 'json_schema') {
    body.response_format = { type: 'json_schema', json_schema: { name: request.outputSchema.name, schema: request.outputSchema.schema, strict: true } };
  } else if (request.outputSchema && mode === 'json_object') {
    body.response_format = { type: 'json_object' };
  }
  return body;
}

/** The reply's token usage; cached prompt tokens only when the endpoint reports them. */
function readUsage(usage: ChatCompletionBody['usage']): LanguageModelResponse['usage'] {
  const read: LanguageModelResponse['usage'] = { promptTokens: usage?.prompt_tokens ?? 0, completionTokens: usage?.completion_tokens ?? 0 };
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number' && Number.isFinite(cached) && cached >= 0) read.cachedPromptTokens = cached;
  return read;
}
