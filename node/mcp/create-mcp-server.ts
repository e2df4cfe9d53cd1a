import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAskTool } from './ask-tool.ts';
import { registerDescribeTablesTool } from './describe-tables-tool.ts';
import { registerExtendSchemaTool } from './extend-schema-tool.ts';
import { registerTableStatsTool } from './table-stats-tool.ts';
import type { ToolContext } from './tool-context.ts';
import { registerWhyTool } from './why-tool.ts';

/** Said to the assistant when it connects (the `instructions` of the initialize result): how the tools fit together. */
const instructions = 'srag answers questions over a pile of documents from one typed record per document that an LLM extracted, '
  + 'each value with the quote it came from, and over tables imported from CSV or Parquet: aggregate questions (how many, average, which '
  + 'most) are answered by SQL that DuckDB computes, not by reading a few passages. Start with describe_tables to see what the tables hold; '
  + 'ask a question with ask; check a value with why; see how complete a table is with table_stats. When a question needs an attribute the '
  + 'table lacks, extend_schema adds it, which costs LLM calls: call it without "confirm" first and tell the user the estimated cost.';

/** The srag MCP server: its tools over `context`, each a use case of the package's `Srag`. */
export function createMcpServer(context: ToolContext, { version }: { version: string }): McpServer {
  const server = new McpServer({ name: 'srag', version }, { instructions });
  registerDescribeTablesTool(server, context);
  registerAskTool(server, context);
  registerWhyTool(server, context);
  registerTableStatsTool(server, context);
  registerExtendSchemaTool(server, context);
  return server;
}
