import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { AskOptions } from '../index.ts';
import { assistantAnswer } from './assistant-answer.ts';
import { runTool } from './run-tool.ts';
import type { ToolContext } from './tool-context.ts';

type ProgressListener = NonNullable<NonNullable<AskOptions['extend']>['onProgress']>;

/**
 * `extend_schema`: the dry run first (what it would add, the back-fill's documents, calls, tokens
 * and cost; nothing added, no extraction call), the run itself only with `confirm: true` — an
 * assistant should not spend the user's money on a guess, so the tool that spends it asks twice.
 */
export function registerExtendSchemaTool(server: McpServer, { useSrag, redact }: ToolContext): void {
  server.registerTool('extend_schema', {
    title: 'Add the attributes a question needs, then answer it',
    description: 'When a question needs an attribute a table of documents lacks (ask then fails with ATTRIBUTES_MISSING), add it: an LLM names '
      + 'the attributes the question needs, srag adds them to the table and extracts only them from every document (a back-fill: LLM calls '
      + 'that cost money and time), then answers the question as ask does, with added_attributes and extraction_usage. Call it first without '
      + '"confirm": nothing is added and no document is read; it returns the attributes it would add and the back-fill\'s documents, calls, '
      + 'prompt and completion tokens and estimated cost in US dollars (cost_usd, null when the model has no known price). Tell the user what it '
      + 'would cost, and only with their agreement call it again with the same arguments and "confirm": true. Only tables made by srag ingest can grow.',
    inputSchema: {
      question: z.string().min(1).describe('The question that needs the new attributes, e.g. "Which hotels offer an airport shuttle?"'),
      table: z.string().min(1).optional().describe('The table of documents to extend (a name from describe_tables); leave it out to use the one the question chooses'),
      confirm: z.boolean().optional().describe('true: run the back-fill and answer; leave it out for the estimate only (nothing is changed)'),
    },
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }, ({ question, table, confirm }, extra) => runTool(redact, () => useSrag(async (srag) => {
    if (!confirm) {
      const estimate = await srag.estimateExtension(question, { table });
      const next = estimate.added_attributes.length === 0
        ? 'the table holds every attribute this question needs: call ask'
        : 'nothing was added; with the user\'s agreement to this cost, call extend_schema again with the same arguments and "confirm": true';
      return { ...estimate, confirmed: false, next };
    }
    const token = extra._meta?.progressToken;
    const answer = await srag.ask(question, {
      table,
      extend: {
        onNotice: (line) => process.stderr.write(`${redact(line)}\n`),
        ...(token === undefined ? {} : { onProgress: progressNotifier((progress, total, message) => extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress, total, message } })) }),
        cancellation: extra.signal,
      },
    });
    return { ...assistantAnswer(answer), confirmed: true };
  })));
}

/**
 * The back-fill's progress as MCP progress notifications, at most one per percent (a back-fill of
 * 100,000 documents sends ~100, not 100,000); a client may keep a long call alive on them.
 */
function progressNotifier(send: (progress: number, total: number, message: string) => Promise<void>): ProgressListener {
  let lastPercent = -1;
  return ({ completed, total }) => {
    const percent = Math.floor((completed * 100) / Math.max(total, 1));
    if (percent === lastPercent && completed < total) return;
    lastPercent = percent;
    // A client gone mid-run must not become an unhandled rejection: the back-fill goes on and is kept.
    send(completed, total, `back-filled ${completed} of ${total} documents`).catch(() => undefined);
  };
}
