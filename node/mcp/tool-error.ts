import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SragError } from '../index.ts';
import { renderFixForMcp } from './render-fix-for-mcp.ts';

/**
 * Any error as an MCP tool error (`isError: true`, which the assistant reads and may act on,
 * rather than a JSON-RPC error it never sees): one line saying what failed and the fix in MCP's
 * words, and the same as data in `structuredContent.error` — `{code, message, hint, fix}`, `fix`
 * the error's fix as srag carries it (`{kind: 'name-table', choices}`). Never a stack trace, never
 * a key: every text passes `redact`.
 */
export function toolError(error: unknown, redact: (text: string) => string): CallToolResult {
  if (SragError.isInstance(error)) {
    const message = redact(error.message);
    const fix = error.fix ? renderFixForMcp(error.fix) : error.hint;
    const hint = fix ? redact(fix) : undefined;
    return {
      isError: true,
      content: [{ type: 'text', text: `${error.code}: ${message}${hint ? ` — ${hint}` : ''}` }],
      structuredContent: { error: { code: error.code, message, ...(hint ? { hint } : {}), ...(error.fix ? { fix: error.fix } : {}) } },
    };
  }
  const message = redact(`unexpected error: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  return { isError: true, content: [{ type: 'text', text: `INTERNAL: ${message}` }], structuredContent: { error: { code: 'INTERNAL', message } } };
}
