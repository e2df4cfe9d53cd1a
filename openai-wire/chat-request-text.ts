import { messagesJsonTexts, requestJsonText, type LanguageModelRequest } from '../core/index.ts';

/**
 * `JSON.stringify(body)` for a chat request's body (`chatCompletionRequest`), in pieces that join to
 * that very text, with the request's messages and output schema written once per object
 * (`messagesJsonTexts`, `requestJsonText`, which the cache key wrote them with) rather than again
 * for every call: only the body's few other fields are written here. Plain objects are written key
 * by key as JSON.stringify writes them (own enumerable keys in order; undefined, functions and
 * symbols left out); anything else goes to JSON.stringify. The pieces are not joined here: a
 * transport that sends bytes encodes them one by one (see `HttpRequest.bodyPieces`), where a joined
 * body was one more copy of each call's text (9 MB at 3,000 pages).
 */
export function chatRequestText(body: Record<string, unknown>, request: LanguageModelRequest): string[] {
  const written: Written = { messages: request.messages, schema: request.outputSchema?.schema };
  const pieces: string[] = [];
  return writeJson(body, written, pieces) ? pieces : ['null'];
}

/** The request's objects whose JSON text core keeps. */
interface Written {
  messages: LanguageModelRequest['messages'];
  schema: object | undefined;
}

/** Pushes `value`'s JSON text onto `pieces`; false, pushing nothing, for what JSON.stringify leaves out. */
function writeJson(value: unknown, written: Written, pieces: string[]): boolean {
  if (value === written.messages) {
    pieces.push(...messagesJsonTexts(written.messages));
    return true;
  }
  if (value === written.schema && written.schema !== undefined) {
    pieces.push(requestJsonText(written.schema));
    return true;
  }
  if (typeof value !== 'object' || value === null || !isPlainObject(value)) {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return false;
    pieces.push(text);
    return true;
  }
  pieces.push('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const start = pieces.length;
    pieces.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    if (writeJson((value as Record<string, unknown>)[key], written, pieces)) first = false;
    else pieces.length = start;
  }
  pieces.push('}');
  return true;
}

/** An object JSON.stringify writes member by member: Object's or no prototype, no toJSON, not an array. */
function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}
