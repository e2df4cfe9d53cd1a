import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type RequestId } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's stdio transport, closing (`onclose`) once its input has ended and every request read
 * from it has been answered. A client stops a stdio server by closing the server's stdin (and sends
 * SIGTERM if it does not exit in time); the SDK's transport does not watch for that end at all.
 * Answering what was already asked first means `printf '…' | srag mcp` gets every reply, and a
 * back-fill under way keeps going to its end rather than being cut off when the assistant quits.
 */
export function stdioUntilAnswered(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Transport {
  const stdio = new StdioServerTransport(input as typeof process.stdin, output as typeof process.stdout);
  const unanswered = new Set<RequestId>();
  let inputEnded = false;
  const closeWhenAnswered = () => {
    if (inputEnded && unanswered.size === 0) void stdio.close();
  };
  const transport: Transport = {
    start: async () => {
      input.once('end', () => {
        inputEnded = true;
        closeWhenAnswered();
      });
      await stdio.start();
    },
    send: async (message) => {
      await stdio.send(message);
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        if (message.id !== undefined) unanswered.delete(message.id);
        closeWhenAnswered();
      }
    },
    close: () => stdio.close(),
  };
  stdio.onmessage = (message) => {
    if (isJSONRPCRequest(message)) unanswered.add(message.id);
    transport.onmessage?.(message);
  };
  stdio.onerror = (error) => transport.onerror?.(error);
  stdio.onclose = () => transport.onclose?.();
  return transport;
}
