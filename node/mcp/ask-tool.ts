import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { assistantAnswer, rowsForAssistant } from './assistant-answer.ts';
import { runTool } from './run-tool.ts';
import type { ToolContext } from './tool-context.ts';

/** `ask`: one question through srag's ask, as `srag ask --json` answers it. */
export function registerAskTool(server: McpServer, { useSrag, redact }: ToolContext): void {
  server.registerTool('ask', {
    title: 'Ask the database a question',
    description: 'Answer a question about the documents and tables in this srag database, such as counts, sums, averages, rankings '
      + 'and filters across many documents. srag chooses the tables the question needs (joining several when it must), an LLM writes one '
      + 'read-only SQL query, DuckDB computes the result, and the answer comes with what it rests on: the SQL, the tables, the joins, '
      + `the columns and up to ${rowsForAssistant} result rows (row_count says how many the query returned), and coverage: per column `
      + 'the query read, how many rows state a value, do not state it, or had it dropped as unsupported by the document (coverage_note '
      + 'says it in words, null when nothing is missing). Report the answer with its coverage. Call describe_tables first to see what '
      + 'the tables hold. When the question needs an attribute no table has, the result is an error naming it and the extend_schema call that adds it.',
    inputSchema: {
      question: z.string().min(1).describe('The question in plain words, e.g. "How many hotels are in Spain?"'),
      table: z.string().min(1).optional().describe('Answer from this table only (a name from describe_tables); leave it out to let srag choose the tables'),
      hybrid: z.boolean().optional().describe('true: answer from the text of the documents the SQL selects (for questions no column can answer); '
        + 'false: from the SQL rows only; leave it out to let srag decide'),
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  }, ({ question, table, hybrid }) => runTool(redact, () => useSrag(async (srag) => assistantAnswer(await srag.ask(question, { table, hybrid })))));
}
