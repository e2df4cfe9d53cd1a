import { readdirSync, readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { answerJson, SragError, type Answer, type Srag } from '../../node/index.ts';
import { assistantAnswer, rowsForAssistant } from '../../node/mcp/assistant-answer.ts';
import { serveMcp } from '../../node/mcp/serve-mcp.ts';
import { sragWhileCalled } from '../../node/mcp/srag-while-called.ts';
import { stdioUntilAnswered } from '../../node/mcp/stdio-until-answered.ts';
import { toolError } from '../../node/mcp/tool-error.ts';
import { caught } from '../helpers/caught.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

const mcpFolder = join(repositoryRoot, 'node/mcp');

/** Every module specifier a source file names: static imports and exports, `import type`, and `import(…)`. */
function specifiers(source: string): string[] {
  return [...source.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?\sfrom\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^import\s+['"]([^'"]+)['"]/gm)]
    .map((match) => (match[1] ?? match[2] ?? match[3])!);
}

describe('the MCP folder', () => {
  it('imports nothing of srag but the package entry: only ../index.ts, its own files, the MCP SDK and zod', () => {
    const files = readdirSync(mcpFolder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(5);
    const allowed = (specifier: string) => specifier === '../index.ts' || /^\.\/[\w-]+\.ts$/.test(specifier) || specifier.startsWith('@modelcontextprotocol/sdk/') || specifier === 'zod';
    const named = files.flatMap((file) => specifiers(readFileSync(join(mcpFolder, file), 'utf8')).map((specifier) => ({ file, specifier })));
    expect(named.filter(({ specifier }) => specifier === '../index.ts').length).toBeGreaterThan(3);
    expect(named.filter(({ specifier }) => !allowed(specifier))).toEqual([]);
  });

  it('finds every kind of import a file can write, so the rule above cannot pass by missing one', () => {
    const source = "import { a } from '../store/x.ts';\nimport type { B } from \"../../app/index.ts\";\nexport { c } from '../cli/c.ts';\nconst d = await import('../d.ts');\nimport '../side-effect.ts';\n";
    expect(specifiers(source)).toEqual(['../store/x.ts', '../../app/index.ts', '../cli/c.ts', '../d.ts', '../side-effect.ts']);
  });
});

describe('the database while tool calls run (sragWhileCalled)', () => {
  function fakeOpener({ failFirst = false } = {}) {
    const events: string[] = [];
    let opens = 0;
    const open = async (): Promise<Srag> => {
      opens += 1;
      const id = opens;
      events.push(`open ${id}`);
      if (failFirst && id === 1) throw new Error('locked');
      return { close: () => events.push(`close ${id}`) } as unknown as Srag;
    };
    return { events, open };
  }

  it('opens once for calls that overlap, closes after the last, and opens again for the next call', async () => {
    const { events, open } = fakeOpener();
    const useSrag = sragWhileCalled(open);
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const first = useSrag(async () => { await held; return 'first'; });
    const second = useSrag(async () => 'second');
    expect(await second).toBe('second');
    expect(events).toEqual(['open 1']);
    release();
    expect(await first).toBe('first');
    expect(events).toEqual(['open 1', 'close 1']);
    await useSrag(async () => undefined);
    expect(events).toEqual(['open 1', 'close 1', 'open 2', 'close 2']);
  });

  it('closes after a call that fails, and tries to open again after an open that failed', async () => {
    const { events, open } = fakeOpener({ failFirst: true });
    const useSrag = sragWhileCalled(open);
    expect(await caught(useSrag(async () => undefined))).toMatchObject({ message: 'locked' });
    expect(await caught(useSrag(async () => { throw new Error('bad question'); }))).toMatchObject({ message: 'bad question' });
    expect(events).toEqual(['open 1', 'open 2', 'close 2']);
  });
});

describe('tool errors (toolError)', () => {
  const redact = (text: string) => text.split('sk-live-secret-key-1234').join('[redacted]');

  it('words the hybrid fix as the argument to leave out, and keeps the fix as data', () => {
    const result = toolError(new SragError({ code: 'INPUT_INVALID', message: 'the hybrid path reads the documents of tables srag ingest made', hint: 'ask without the hybrid path', fix: { kind: 'answer-from-sql' } }), redact);
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'INPUT_INVALID: the hybrid path reads the documents of tables srag ingest made — call again without the argument "hybrid" (or with "hybrid": false)' }],
      structuredContent: { error: { code: 'INPUT_INVALID', message: 'the hybrid path reads the documents of tables srag ingest made', hint: 'call again without the argument "hybrid" (or with "hybrid": false)', fix: { kind: 'answer-from-sql' } } },
    });
  });

  it('never carries a key, in the text or the data, and turns an unexpected error into its first line', () => {
    const failed = toolError(new SragError({ code: 'LLM_REQUEST_FAILED', message: 'the endpoint refused key sk-live-secret-key-1234', hint: 'check sk-live-secret-key-1234' }), redact);
    expect(JSON.stringify(failed)).not.toContain('sk-live-secret-key-1234');
    expect(failed.structuredContent).toEqual({ error: { code: 'LLM_REQUEST_FAILED', message: 'the endpoint refused key [redacted]', hint: 'check [redacted]' } });
    const unexpected = toolError(new Error('boom with sk-live-secret-key-1234\n    at somewhere (file.ts:1:1)'), redact);
    expect(unexpected.content).toEqual([{ type: 'text', text: 'INTERNAL: unexpected error: boom with [redacted]' }]);
  });
});

describe('srag mcp with a database that is not there', () => {
  it('stops before serving, with the error srag gives for a --db that does not exist', async () => {
    const error = await caught(serveMcp({ database: join(repositoryRoot, 'no-such-directory/none.duckdb'), version: '0.0.0' }, new AbortController().signal));
    expect(SragError.isInstance(error) && error.code).toBe('INPUT_INVALID');
    expect((error as Error).message).toMatch(/^there is no database .*none\.duckdb$/);
  });
});

describe('an answer as the assistant gets it (assistantAnswer)', () => {
  const answer = {
    answer: 'many', sql: 'SELECT name, price_per_night FROM hotels', tables: ['hotels'], joins: [], columns: ['name', 'price_per_night'],
    rows: Array.from({ length: 250 }, (_, index) => [`hotel ${index}`, 100 + index]),
    coverage: [{ column: 'price_per_night', rows: 250, present: 246, missing: 0, dropped: 4, unknown: 0, conflicting: 0, over: 'selected', droppedExample: '/data/hotels/amber-arch-hotel.md' }],
    usage: { promptTokens: 10, completionTokens: 2, calls: 1 }, path: 'sql',
    chosen: [{ name: 'hotels', schema: { title: 'Hotels', attributes: [] } }],
  } as unknown as Answer;

  it('carries at most rowsForAssistant rows and says how many the query returned, the rest as srag ask --json gives it', () => {
    const { rows, row_count: rowCount, coverage_note: _note, ...rest } = assistantAnswer(answer);
    const { rows: allRows, ...expected } = answerJson(answer);
    expect(rows).toEqual((allRows as unknown[]).slice(0, rowsForAssistant));
    expect((rows as unknown[]).length).toBe(100);
    expect(rowCount).toBe(250);
    expect(rest).toEqual(expected);
  });

  it('words the coverage, naming the why call that shows a dropped value', () => {
    expect(assistantAnswer(answer).coverage_note).toBe('price_per_night: computed over 246 of the 250 hotels the query selects; 4 values were dropped as unsupported or invalid '
      + '(see the tool why with {"document":"amber-arch-hotel.md","attribute":"price_per_night","table":"hotels"}).');
    expect(assistantAnswer({ ...answer, coverage: undefined }).coverage_note).toBeNull();
  });
});

describe('the stdio transport (stdioUntilAnswered)', () => {
  async function started() {
    const input = new PassThrough();
    const output = new PassThrough();
    const transport = stdioUntilAnswered(input, output);
    const received: unknown[] = [];
    const state = { closed: false };
    transport.onmessage = (message) => received.push(message);
    transport.onclose = () => { state.closed = true; };
    await transport.start();
    return { input, output, transport, received, state };
  }
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('closes once its input has ended and every request read from it has been answered, not before', async () => {
    const { input, output, transport, received, state } = await started();
    input.end('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"ask"}}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    await turn();
    expect(received).toHaveLength(2);
    expect(state.closed).toBe(false);
    await transport.send({ jsonrpc: '2.0', id: 7, result: { content: [] } });
    expect(state.closed).toBe(true);
    expect(String(output.read())).toBe('{"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n');
  });

  it('closes at the end of its input when no request waits for an answer', async () => {
    const { input, state } = await started();
    input.end();
    await turn();
    expect(state.closed).toBe(true);
  });
});
