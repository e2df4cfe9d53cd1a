import type { CancellationSignal } from './cancellation-signal.ts';

/**
 * The language-model port: everything core asks of an LLM.
 *
 * openai-wire's OpenAiChatModel implements it for both runtimes (over Node's fetch, or the Sheets
 * request loop over UrlFetchApp), test doubles too; core never knows which one it talks to. The
 * method is prefixed `do` so that core code goes through `ModelClient.generate` (which adds retries,
 * caching and usage accounting) rather than calling it directly.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A JSON Schema the endpoint should constrain the output to (OpenAI `response_format: json_schema`). */
export interface OutputSchema {
  /** A short identifier, e.g. `record` or `sql_query`. */
  name: string;
  schema: Record<string, unknown>;
}

export interface LanguageModelRequest {
  messages: ChatMessage[];
  /** When given, the endpoint is asked for JSON matching it (strict mode where supported). */
  outputSchema?: OutputSchema;
  /** Model name override; adapters fall back to their default model. */
  model?: string;
  /** Lets a caller give up on a request (Ctrl-C, a stopped batch). */
  abortSignal?: CancellationSignal;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  /**
   * Of `promptTokens`, those the endpoint served from its prompt cache (OpenAI's
   * `usage.prompt_tokens_details.cached_tokens`, billed at a discount); absent when it does not say.
   */
  cachedPromptTokens?: number;
  /**
   * Of `completionTokens`, those a reasoning model spent thinking before it answered (OpenAI's
   * `usage.completion_tokens_details.reasoning_tokens`; billed as output); absent when it does not say.
   */
  reasoningTokens?: number;
}

export interface LanguageModelResponse {
  /** The raw text of the model's reply; JSON parsing happens in core, in one place. */
  text: string;
  usage: TokenUsage;
  /** The model that answered, as the endpoint reports it. */
  model: string;
  /** True when the response came from a cache and no endpoint was called. */
  cached?: boolean;
  /**
   * True when the endpoint reported no token usage: `usage` is then estimated from the texts
   * (about four characters a token), and the totals say how many calls it was estimated for.
   */
  usageMissing?: boolean;
}

export interface LanguageModel {
  /** The model name used when a request names none; part of every cache key. */
  readonly modelId: string;
  /**
   * Where replies come from: the endpoint's base URL without credentials, query or trailing slash
   * (`https://api.openai.com/v1`). Part of every cache key, so that a reply is served only to the
   * endpoint that gave it. Undefined when no endpoint is configured (replies cached from any
   * endpoint are then served, and a call fails) and for test doubles.
   */
  readonly endpoint?: string;
  doGenerate(request: LanguageModelRequest): Promise<LanguageModelResponse>;
}
