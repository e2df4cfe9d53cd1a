import type { ChatRequest } from './chat-request.ts';
import { chatCompletionBody, errorBody } from './openai-wire.ts';
import type { FaultKind } from './types.ts';

export interface PlannedResponse {
  status: number;
  headers: Record<string, string>;
  /** JSON, or text sent as it is (a file's content). */
  body: Record<string, unknown> | string;
}

/** Content a chatty model sends instead of JSON. */
export const malformedContent = 'Sure! Here is the record: {oops';

/** Characters an `endless_reply` adds to its reply. */
export const endlessReplyCharacters = 50_000_000;

/**
 * The response a fault replaces the good one with; undefined for `hang` (no response at all).
 * `content` is the good reply, which `truncated_json` cuts in half.
 */
export function faultResponse(fault: FaultKind, request: ChatRequest, content: string): PlannedResponse | undefined {
  switch (fault) {
    case 'rate_limit':
      return {
        status: 429,
        headers: { 'retry-after': '1' },
        body: errorBody('Rate limit reached for requests (simulated by the LLM stand-in).', 'requests', null, 'rate_limit_exceeded'),
      };
    case 'server_error':
      return {
        status: 500,
        headers: {},
        body: errorBody('The server had an error while processing your request (simulated by the LLM stand-in).', 'server_error'),
      };
    case 'truncated_json':
      return { status: 200, headers: {}, body: chatCompletionBody(request, content.slice(0, Math.floor(content.length / 2))) };
    case 'malformed_json':
      return { status: 200, headers: {}, body: chatCompletionBody(request, malformedContent) };
    case 'endless_reply': {
      // Still JSON: the first quote (or, without one, the text after the reply) runs on.
      const endless = 'and so on '.repeat(endlessReplyCharacters / 10);
      const quote = '"quote":"';
      const padded = content.includes(quote) ? content.replace(quote, `${quote}${endless}`) : `${content}${' '.repeat(endlessReplyCharacters)}`;
      return { status: 200, headers: {}, body: chatCompletionBody(request, padded) };
    }
    case 'hang':
      return undefined;
  }
}
