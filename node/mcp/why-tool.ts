import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runTool } from './run-tool.ts';
import type { ToolContext } from './tool-context.ts';

/** `why`: where one value came from (`srag why`). */
export function registerWhyTool(server: McpServer, { useSrag, redact }: ToolContext): void {
  server.registerTool('why', {
    title: 'Show where a value came from',
    description: 'Show where one value of a table came from: the value stored, what the model returned before srag checked and normalized it (raw), '
      + 'the quote from the document it was read from, its status and, when it was dropped or is missing, the reason. Use it to check an '
      + 'answer, or when coverage says values were dropped. source is the document as ingested; otherMatches counts further documents the '
      + '"document" argument also matched (the first is shown: pass more of the path to pick another).',
    inputSchema: {
      document: z.string().min(1).describe('The document: its path as ingested, or any unique part of it such as its file name, e.g. "amber-arch-hotel.md"'),
      attribute: z.string().min(1).describe('The attribute (column) name, e.g. "price_per_night"; an item of a list as "rooms[2].price_per_night"'),
      table: z.string().min(1).optional().describe('The table (a name from describe_tables), when more than one table has this attribute'),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ document, attribute, table }) => runTool(redact, () => useSrag(async (srag) => ({ ...await srag.explain({ document, attribute, table }) }))));
}
