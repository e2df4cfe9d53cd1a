import { firstLine, LanguageModelError, SragError, type LanguageModelRequest, type LanguageModelResponse } from '../../../core/index.ts';
import type { HttpRequest, HttpResponse } from '../runtime/http-transport.ts';

/** How structured output is asked for; endpoints without it get the next mode down. */
export type OutputMode = 'json_schema' | 'json_object' | 'none';

export interface ChatEndpoint {
  /** An OpenAI-compatible base URL including `/v1`. */
  baseUrl: string;
  /** Read late, sent only in the Authorization header; never logged or put in a message. */
  apiKey?: string;
}

/** The chat-completions request for `request`, in the wire format OpenAI-compatible servers take. */
export function buildChatRequest(endpoint: ChatEndpoint, model: string, request: LanguageModelRequest, mode: OutputMode): HttpRequest {
  const body: Record<string, unknown> = { model, messages: request.messages, temperature: 0 };
  if (request.outputSchema && mode === 'json_schema') {
    body.response_format = { type: 'json_schema', json_schema: { name: request.outputSchema.name, schema: request.outputSchema.schema, strict: true } };
  } else if (request.outputSchema && mode === 'json_object') {
    body.response_format = { type: 'json_object' };
  }
  return {
    url: `${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`,
    method: 'post',
    contentType: 'application/json',
    headers: endpoint.apiKey ? { Authorization: `Bearer ${endpoint.apiKey}` } : {},
    payload: JSON.stringify(body),
  };
}

/** Only the fields read; anything else in the reply is ignored. */
interface ChatCompletionBody {
  model?: string;
  choices?: Array<{ message?: { content?: string | null } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
  error?: { message?: string; code?: string | null; type?: string };
}

export type ChatOutcome =
  | { kind: 'response'; response: LanguageModelResponse }
  /** A 400 about `response_format`: ask again with the next output mode. */
  | { kind: 'format-rejected' };

/**
 * Read a chat-completions HTTP response: the reply text and usage, or a `LanguageModelError` that
 * says whether core may retry (408, 409, 429, 5xx) and how long the endpoint asked it to wait.
 */
export function readChatResponse(response: HttpResponse, model: string, endpoint: ChatEndpoint, redact: (text: string) => string): ChatOutcome {
  let body: ChatCompletionBody | undefined;
  try {
    body = JSON.parse(response.body) as ChatCompletionBody;
  } catch {
    body = undefined;
  }
  if (response.status >= 200 && response.status < 300) {
    if (!body) throw new LanguageModelError({ message: `the model endpoint ${endpoint.baseUrl} sent a reply that is not JSON`, retryable: true });
    return {
      kind: 'response',
      response: {
        text: body.choices?.[0]?.message?.content ?? '',
        model: body.model ?? model,
        usage: { promptTokens: body.usage?.prompt_tokens ?? 0, completionTokens: body.usage?.completion_tokens ?? 0 },
      },
    };
  }
  const detail = redact(firstLine(body?.error?.message ?? response.body, 300));
  if (response.status === 400 && /response_format|json_schema|json_object|structured/i.test(detail)) return { kind: 'format-rejected' };
  if (response.status === 429 && (body?.error?.code === 'insufficient_quota' || /quota/i.test(body?.error?.type ?? ''))) {
    throw new SragError({ code: 'QUOTA_EXCEEDED', message: `the model provider's quota is used up: ${detail}`, hint: 'check the plan and billing of the API key' });
  }
  const status = response.status;
  const hint = status === 401 || status === 403 ? 'the endpoint refused the API key: save a new one in srag › Settings'
    : status === 404 ? `the endpoint does not know model "${model}" (or the base URL is wrong): check srag › Settings`
    : undefined;
  throw new LanguageModelError({
    message: `the model endpoint answered ${status}: ${detail}`,
    status,
    retryable: status === 408 || status === 409 || status === 429 || status >= 500,
    retryAfterSeconds: parseRetryAfter(response.headers['retry-after']),
    hint,
  });
}

/** Retry-After is either seconds or an HTTP date. */
function parseRetryAfter(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, (date - Date.now()) / 1000) : undefined;
}
