import OpenAI from 'openai';
import { firstLine, LanguageModelError, redactSecrets, SragError, type CancellationSignal, type LanguageModel, type LanguageModelRequest, type LanguageModelResponse } from '../../core/index.ts';

export interface OpenAiLanguageModelSettings {
  /** Read late; never logged, stored or put in an error message. */
  apiKey?: string;
  baseURL?: string;
  model: string;
  /** Per-request timeout; a hung request becomes a retryable error. */
  timeoutMilliseconds: number;
}

type OutputMode = 'json_schema' | 'json_object' | 'none';

/**
 * The language-model port over the `openai` SDK: OpenAI, Ollama, vLLM, llama.cpp server and
 * LM Studio all speak this API. The SDK's own retries are off; core's model client retries with
 * its own policy, so this adapter only translates failures into `LanguageModelError`.
 *
 * Endpoints without structured output reject `response_format: json_schema` with a 400; the adapter
 * then falls back to `json_object`, then to plain text (core parses JSON tolerantly), and remembers.
 */
export class OpenAiLanguageModel implements LanguageModel {
  readonly modelId: string;
  private readonly client: OpenAI;
  private outputMode: OutputMode = 'json_schema';
  private readonly redact: (text: string) => string;

  constructor(settings: OpenAiLanguageModelSettings) {
    this.modelId = settings.model;
    this.redact = (text) => redactSecrets(text, [settings.apiKey]);
    this.client = new OpenAI({
      apiKey: settings.apiKey ?? 'not-needed-for-local-servers',
      baseURL: settings.baseURL,
      maxRetries: 0,
      timeout: settings.timeoutMilliseconds,
    });
  }

  async doGenerate(request: LanguageModelRequest): Promise<LanguageModelResponse> {
    const model = request.model ?? this.modelId;
    for (;;) {
      const mode = request.outputSchema ? this.outputMode : 'none';
      try {
        const completion = await this.client.chat.completions.create({
          model,
          messages: request.messages,
          temperature: 0,
          ...(mode === 'json_schema' && request.outputSchema
            ? { response_format: { type: 'json_schema', json_schema: { name: request.outputSchema.name, schema: request.outputSchema.schema, strict: true } } }
            : mode === 'json_object' ? { response_format: { type: 'json_object' } } : {}),
        }, { signal: toAbortSignal(request.abortSignal) });
        const text = completion.choices[0]?.message?.content ?? '';
        return {
          text,
          model: completion.model ?? model,
          usage: { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 },
        };
      } catch (error) {
        if (mode !== 'none' && isResponseFormatRejection(error)) {
          this.outputMode = mode === 'json_schema' ? 'json_object' : 'none';
          continue;
        }
        throw translateError(error, model, this.client.baseURL, this.redact);
      }
    }
  }
}

function isResponseFormatRejection(error: unknown): boolean {
  return error instanceof OpenAI.APIError && error.status === 400 && /response_format|json_schema|json_object|structured/i.test(error.message);
}

function translateError(error: unknown, model: string, baseURL: string, redact: (text: string) => string): unknown {
  if (error instanceof OpenAI.APIUserAbortError) {
    return new SragError({ code: 'CANCELLED', message: 'the model request was cancelled', cause: error });
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new LanguageModelError({ message: `the model request timed out (${baseURL})`, retryable: true, cause: error });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    return new LanguageModelError({
      message: `cannot reach the model endpoint ${baseURL}`,
      retryable: true,
      unreachable: true,
      hint: 'check OPENAI_BASE_URL and that the server is running',
      cause: error,
    });
  }
  if (error instanceof OpenAI.APIError) {
    const status = error.status;
    const retryAfter = error.headers?.get?.('retry-after');
    const retryAfterSeconds = retryAfter ? parseRetryAfter(retryAfter) : undefined;
    const hint = status === 401 ? 'the endpoint refused the API key: check OPENAI_API_KEY'
      : status === 404 ? `the endpoint does not know model "${model}": set SRAG_MODEL (and SRAG_EXTRACT_MODEL) to a model it serves`
      : undefined;
    return new LanguageModelError({
      message: `the model endpoint answered ${status ?? 'an error'}: ${redact(firstLine(error.message, 300))}`,
      status,
      retryable: status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500),
      retryAfterSeconds,
      hint,
    });
  }
  return new LanguageModelError({ message: redact(error instanceof Error ? error.message : String(error)), retryable: false });
}

/** Retry-After is either seconds or an HTTP date. */
function parseRetryAfter(value: string): number | undefined {
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : undefined;
}

/** Node's own signal passes as it is; any other cancellation signal is followed by a new one. */
function toAbortSignal(signal: CancellationSignal | undefined): AbortSignal | undefined {
  if (signal === undefined || signal instanceof AbortSignal) return signal;
  const controller = new AbortController();
  if (signal.aborted) controller.abort();
  else signal.addEventListener('abort', () => controller.abort(), { once: true });
  return controller.signal;
}
