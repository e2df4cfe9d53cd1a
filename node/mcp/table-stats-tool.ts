import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { runTool } from './run-tool.ts';
import type { ToolContext } from './tool-context.ts';

/** `table_stats`: a table's rows, ingestion log and column statistics (`srag stats`). */
export function registerTableStatsTool(server: McpServer, { useSrag, redact }: ToolContext): void {
  server.registerTool('table_stats', {
    title: 'Show a table\'s statistics',
    description: 'Statistics of one table: its rows and the rows without any value, the ingestion log\'s documents per status (done, failed, …) '
      + 'for a table made from documents, and per column the statistics srag keeps (non-null counts; for numbers minimum, maximum and mean; for text and booleans the most frequent values and the distinct count), '
      + 'plus its schema. Use it to judge how complete a table is, or what values a column takes before asking about them.',
    inputSchema: {
      table: z.string().min(1).optional().describe('The table (a name from describe_tables); needed when the database holds more than one table of documents'),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ table }) => runTool(redact, () => useSrag(async (srag) => ({ ...await srag.stats(table) }))));
}
