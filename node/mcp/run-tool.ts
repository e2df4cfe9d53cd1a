import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolError } from './tool-error.ts';

/**
 * One tool call: its result as `structuredContent` and, as the specification asks of a tool that
 * returns structured content, the same JSON in a text block ("For backwards compatibility, a tool
 * that returns structured content SHOULD also return the serialized JSON in a TextContent block",
 * https://modelcontextprotocol.io/specification/2025-06-18/server/tools#structured-content; some
 * clients pass the model only the text). Any error becomes a tool error with its fix (`toolError`).
 */
export async function runTool(redact: (text: string) => string, work: () => Promise<Record<string, unknown>>): Promise<CallToolResult> {
  try {
    const structured = await work();
    return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
  } catch (error) {
    return toolError(error, redact);
  }
}
