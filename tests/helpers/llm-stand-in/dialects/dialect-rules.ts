import type { IncomingHttpHeaders } from 'node:http';
import type { ChatRequest } from '../chat-request.ts';
import type { PlannedResponse } from '../fault-response.ts';

/** What a dialect sees of a chat request. */
export interface DialectRequest {
  headers: IncomingHttpHeaders;
  /** The parsed JSON body. */
  body: Record<string, unknown>;
  chat: ChatRequest;
}

/**
 * How one provider's OpenAI-compatible endpoint differs from OpenAI's chat models: where it lives,
 * what it refuses before answering and in which words, how its error bodies and replies are shaped.
 * Each dialect file quotes the documentation or public issue threads its behaviour comes from, and
 * says what could not be verified.
 */
export interface DialectRules {
  /** The path srag's base URL ends in: `/v1`, Azure's `/openai/v1`, Gemini's `/v1beta/openai`, OpenRouter's `/api/v1`. */
  basePath: string;
  /** The refusal this provider sends before answering (a key, a model, a field it does not take), or undefined to answer. */
  refuse(request: DialectRequest): PlannedResponse | undefined;
  /** The request as the provider's model sees it (Anthropic's ignores `response_format`). */
  asAnswered(chat: ChatRequest): ChatRequest;
  /** An error body in the provider's shape, for the stand-in's own refusals (a prompt it does not recognise). */
  errorBody(status: number, message: string, type: string, param: string | null): unknown;
  /** A good reply's body in the provider's shape, from the OpenAI-shaped one; `content` is the reply text. */
  reply(body: Record<string, unknown>, request: DialectRequest, content: string): PlannedResponse;
}

/**
 * Markers a test document carries to make a dialect answer as its provider does in that case. A
 * dialect that has no such case ignores the marker.
 */
export const dialectMarkers = {
  /** A structured-output refusal: `message.refusal` set, no content (OpenAI, Azure). */
  refusal: 'STAND-IN: REFUSAL',
  /** A content filter: Azure refuses the prompt with 400 `content_filter`; OpenAI ends the reply with `finish_reason: content_filter`. */
  contentFilter: 'STAND-IN: CONTENT-FILTER',
  /** A prompt over the context: each provider's own 400 for it (OpenAI, vLLM, llama.cpp server). */
  tooLong: 'STAND-IN: TOO-LONG',
  /** The reply given as one tool call whose arguments are the JSON (a server with automatic tool choice). */
  toolCall: 'STAND-IN: TOOL-CALL',
  /** The reply's content as a list of parts, a reasoning part first. */
  contentParts: 'STAND-IN: CONTENT-PARTS',
  /** A reply without `usage`. */
  noUsage: 'STAND-IN: NO-USAGE',
  /** OpenRouter: the first request with it gets a 200 whose body is a provider's error; asked again, an answer. */
  providerError: 'STAND-IN: PROVIDER-ERROR',
} as const;

/** Whether any message of the request carries `marker`. */
export function carries(chat: ChatRequest, marker: string): boolean {
  return chat.messages.some((message) => message.content.includes(marker));
}

/** An OpenAI-shaped error body (`{"error": {"message", "type", "param", "code"}}`). */
export function openAiError(message: string, type: string | null, param: string | null = null, code: string | null = null): Record<string, unknown> {
  return { error: { message, type, param, code } };
}

/**
 * The reply shapes a test document asks for with a marker, on an OpenAI-shaped body: a tool call,
 * content parts, no usage. The others (refusal, content filter) are the dialects' own.
 */
export function shapeByMarkers(body: Record<string, unknown>, chat: ChatRequest, content: string): Record<string, unknown> {
  const shaped = structuredClone(body) as { choices: Array<{ message: Record<string, unknown>; finish_reason: string }>; usage?: unknown };
  const choice = shaped.choices[0]!;
  if (carries(chat, dialectMarkers.toolCall)) {
    choice.message.content = null;
    choice.message.tool_calls = [{ id: 'call_stand_in_1', type: 'function', function: { name: 'record', arguments: content } }];
    choice.finish_reason = 'tool_calls';
  }
  if (carries(chat, dialectMarkers.contentParts)) {
    choice.message.content = [{ type: 'thinking', thinking: [{ type: 'text', text: 'Reading the page first.' }] }, { type: 'text', text: content }];
  }
  if (carries(chat, dialectMarkers.noUsage)) delete shaped.usage;
  return shaped as unknown as Record<string, unknown>;
}

/** The body as a JSON reply with status 200. */
export function ok(body: unknown): PlannedResponse {
  return { status: 200, headers: {}, body: body as Record<string, unknown> };
}

/** A refusal with `status` and `body` (a list body, as Gemini's, goes as JSON text). */
export function refused(status: number, body: unknown): PlannedResponse {
  return { status, headers: {}, body: Array.isArray(body) || typeof body !== 'object' ? JSON.stringify(body) : body as Record<string, unknown> };
}

/** A bearer key from the Authorization header, if any. */
export function bearerKey(request: DialectRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' && /^Bearer\s+\S/.test(header) ? header.replace(/^Bearer\s+/, '') : undefined;
}
