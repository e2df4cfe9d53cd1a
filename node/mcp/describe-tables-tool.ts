import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { runTool } from './run-tool.ts';
import type { ToolContext } from './tool-context.ts';

/** `describe_tables`: every table a question may read, what made it and what it holds. */
export function registerDescribeTablesTool(server: McpServer, { useSrag, redact }: ToolContext): void {
  server.registerTool('describe_tables', {
    title: 'List the tables and what they hold',
    description: 'List every table a question can read, to learn what this database can answer before calling ask. For each table: its name, '
      + 'madeBy ("srag ingest": one record extracted from each document by an LLM, each value with the quote it was read from; '
      + '"srag import": a CSV or Parquet file taken as it is, importedFrom naming it; "srag_extract": made by SQL over documents), its title '
      + 'and description, its attributes (name, kind, description, unit and scale for numbers, example values), its child entities (lists '
      + 'inside each document, each a table of its own) and, for such a table, its parent. For row counts and value statistics call table_stats.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, () => runTool(redact, () => useSrag(async (srag) => ({ database: srag.database, tables: await srag.describeTables() }))));
}
