import type { ChatMessage } from '../ports/language-model.ts';
import { requestJsonText } from './request-json-text.ts';

/**
 * `JSON.stringify(messages)` in pieces that join to it: `[`, each message's JSON text (written
 * once per message object, `requestJsonText`), `,` between them, `]`. A run's batch calls share
 * one system message object (~3.7 kB of instructions), which is so written once for the run
 * rather than once per call; the pieces go to the hash and into the body as they are, never joined
 * into a copy of their own.
 */
export function messagesJsonTexts(messages: readonly ChatMessage[]): string[] {
  const pieces = ['['];
  messages.forEach((message, index) => {
    if (index > 0) pieces.push(',');
    pieces.push(requestJsonText(message));
  });
  pieces.push(']');
  return pieces;
}
