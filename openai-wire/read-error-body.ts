/** What an error body says, whatever the provider's shape; each field only when it was given. */
export interface ErrorDetail {
  message?: string;
  /** OpenAI's `code` (`unsupported_value`, `context_length_exceeded`), or a provider's status word. */
  code?: string;
  type?: string;
  /** The request field it is about (`temperature`, `messages`). */
  param?: string;
}

/**
 * The error in an error response's body, read from every shape an OpenAI-compatible endpoint
 * sends: OpenAI's `{"error": {"message", "type", "param", "code"}}` (Azure, Ollama, llama.cpp
 * server with a numeric `code`, OpenRouter, vLLM since 0.10.1); vLLM's earlier flat
 * `{"object": "error", "message", "type", "code": 404}`; LM Studio's `{"error": "text"}`; Gemini's
 * list `[{"error": {"code": 400, "message", "status": "INVALID_ARGUMENT"}}]`; Anthropic's
 * `{"type": "error", "error": {"type", "message"}}`. Undefined when the body is none of them.
 */
export function readErrorBody(text: string): ErrorDetail | undefined {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(body)) body = body[0];
  if (typeof body !== 'object' || body === null) return undefined;
  const outer = body as Record<string, unknown>;
  if (typeof outer.error === 'string') return { message: outer.error };
  const inner = typeof outer.error === 'object' && outer.error !== null ? outer.error as Record<string, unknown> : outer.object === 'error' ? outer : undefined;
  if (!inner) return undefined;
  const detail: ErrorDetail = {};
  if (typeof inner.message === 'string') detail.message = inner.message;
  const code = typeof inner.code === 'string' ? inner.code : typeof inner.status === 'string' ? inner.status : undefined;
  if (code) detail.code = code;
  if (typeof inner.type === 'string') detail.type = inner.type;
  if (typeof inner.param === 'string') detail.param = inner.param;
  return detail;
}
