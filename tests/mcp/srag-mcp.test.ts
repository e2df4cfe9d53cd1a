import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { askCommand } from '../../node/cli/ask-command.ts';
import { importCommand } from '../../node/cli/import-command.ts';
import { ingestCommand } from '../../node/cli/ingest-command.ts';
import { readGoldQuestions, rowsMatchGold } from '../helpers/gold-questions.ts';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-stand-in/index.ts';
import { extractionCallCount } from '../helpers/requested-attributes.ts';
import { runCommandInProcess } from '../helpers/run-command-in-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

// One real `srag mcp --db …` process for the file, driven by the SDK's own client over stdio, over
// the README's multi-table database: hotels ingested (without has_airport_shuttle, which
// extend_schema then adds) and cities imported from CSV.

let standIn: LlmStandIn;
let client: Client;
let serverLog = '';
const clientErrors: Error[] = [];
const workDirectory = mkdtempSync(join(tmpdir(), 'srag-mcp-'));
const database = join(workDirectory, 'srag.duckdb');
const acrossTables = readGoldQuestions('examples/cities').find((question) => question.question === 'How many hotels are in cities with a population over 2 million?')!;
const needsShuttle = readGoldQuestions('examples/hotels').find((question) => question.question === 'What is the average guest rating of hotels that offer an airport shuttle?')!;
let cliAnswer: Record<string, unknown>;

const environment = () => ({ OPENAI_BASE_URL: standIn.url, OPENAI_API_KEY: 'sk-test-not-a-real-key-0000', SRAG_CONCURRENCY: '8' });

/** A tool's result, with its structured content typed loosely for assertions. */
async function call(name: string, args: Record<string, unknown> = {}, options?: Parameters<Client['callTool']>[2]): Promise<CallToolResult & { structuredContent: Record<string, any> }> {
  return await client.callTool({ name, arguments: args }, undefined, options) as CallToolResult & { structuredContent: Record<string, any> };
}

const text = (result: CallToolResult) => result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n');

beforeAll(async () => {
  standIn = await startLlmStandIn({ corpora: ['examples/hotels', 'examples/cities'] });
  for (const [name, value] of Object.entries(environment())) vi.stubEnv(name, value);
  const schema = JSON.parse(readFileSync('examples/hotels/schema.json', 'utf8'));
  delete schema.properties.has_airport_shuttle;
  const schemaFile = join(workDirectory, 'hotels-without-shuttle.schema.json');
  writeFileSync(schemaFile, JSON.stringify(schema));
  const ingested = await runCommandInProcess((signal) => ingestCommand(['examples/hotels/docs'], { schema: schemaFile, db: database, evidence: true }, signal));
  expect(ingested.status, ingested.stderr).toBe(0);
  const imported = await runCommandInProcess(() => importCommand('examples/cities/cities.csv', { db: database }));
  expect(imported.status, imported.stderr).toBe(0);
  // `srag ask --json` for the same question, before the server holds the file.
  const asked = await runCommandInProcess((signal) => askCommand([acrossTables.question], { db: database, json: true }, signal), { database });
  expect(asked.status, asked.stderr).toBe(0);
  cliAnswer = JSON.parse(asked.stdout);
  vi.unstubAllEnvs();

  // The child sees only the endpoint and settings given here, none from the machine.
  const inherited = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined && !/^(OPENAI_|SRAG_)/.test(entry[0])));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(repositoryRoot, 'bin/srag.js'), 'mcp', '--db', database],
    env: { ...inherited, ...environment() },
    cwd: repositoryRoot,
    stderr: 'pipe',
  });
  transport.stderr!.on('data', (chunk) => { serverLog += chunk; });
  client = new Client({ name: 'srag-test-client', version: '1.0.0' });
  // A line on stdout that is not a protocol message ends up here.
  client.onerror = (error) => clientErrors.push(error);
  await client.connect(transport);
}, 240_000);

afterAll(async () => {
  vi.unstubAllEnvs();
  await client?.close();
  await standIn?.close();
  rmSync(workDirectory, { recursive: true, force: true });
});

describe('srag mcp over stdio, with the SDK\'s client', () => {
  it('lists its five tools, each with a JSON Schema of its arguments', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'describe_tables', 'extend_schema', 'table_stats', 'why']);
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.ask!.inputSchema).toMatchObject({
      type: 'object',
      properties: { question: { type: 'string' }, table: { type: 'string' }, hybrid: { type: 'boolean' } },
      required: ['question'],
    });
    expect(byName.why!.inputSchema.required).toEqual(['document', 'attribute']);
    expect(byName.extend_schema!.inputSchema).toMatchObject({ properties: { confirm: { type: 'boolean' } }, required: ['question'] });
    expect(byName.ask!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.extend_schema!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(client.getInstructions()).toContain('describe_tables');
  });

  it('answers a question over two tables exactly as srag ask --json does, with the rows, the SQL and the coverage', async () => {
    const result = await call('ask', { question: acrossTables.question });
    expect(result.isError, text(result)).toBeFalsy();
    const { row_count: rowCount, coverage_note: coverageNote, usage: _usage, ...answer } = result.structuredContent;
    // usage differs by design: the CLI's run called the model, the server's found the replies in the response cache.
    const { usage: _cliUsage, ...expected } = cliAnswer;
    expect(answer).toEqual(expected);
    expect([...answer.tables].sort()).toEqual(['cities', 'hotels']);
    expect(rowsMatchGold(answer.rows, acrossTables.gold as never)).toBe(true);
    expect(rowCount).toBe(answer.rows.length);
    expect(coverageNote === null || typeof coverageNote === 'string').toBe(true);
    // The text block is the same JSON, for clients that pass the model only text.
    expect(JSON.parse(text(result))).toEqual(result.structuredContent);
  });

  it('describes every table with what made it, and a table\'s statistics', async () => {
    const described = await call('describe_tables');
    expect(described.isError, text(described)).toBeFalsy();
    const tables = Object.fromEntries(described.structuredContent.tables.map((table: { name: string }) => [table.name, table]));
    expect(tables.hotels).toMatchObject({ madeBy: 'srag ingest', title: expect.any(String) });
    expect(tables.hotels.attributes.find((attribute: { name: string }) => attribute.name === 'price_per_night')).toMatchObject({ kind: 'number', unit: expect.any(String) });
    expect(tables.cities).toMatchObject({ madeBy: 'srag import', importedFrom: 'examples/cities/cities.csv' });
    const stats = await call('table_stats', { table: 'hotels' });
    expect(stats.isError, text(stats)).toBeFalsy();
    expect(stats.structuredContent).toMatchObject({ table: 'hotels', rows: 50, log: { done: 50 } });
    expect(stats.structuredContent.statistics.find((column: { name: string }) => column.name === 'country')).toMatchObject({ rowCount: 50, nonNullCount: 50 });
  });

  it('shows where a value came from: the value, its quote and status', async () => {
    const result = await call('why', { document: 'amber-arch-hotel.md', attribute: 'price_per_night' });
    expect(result.isError, text(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ table: 'hotels', attribute: 'price_per_night', source: expect.stringMatching(/amber-arch-hotel\.md$/), status: expect.any(String) });
    expect(result.structuredContent.quote).toEqual(expect.any(String));
    expect(readFileSync('examples/hotels/docs/amber-arch-hotel.md', 'utf8')).toContain(result.structuredContent.quote);
  });

  it('says what is wrong and the argument that fixes it, in words and as data, for a table that is not there', async () => {
    const result = await call('ask', { question: 'How many hotels are in Spain?', table: 'hotel' });
    expect(result.isError).toBe(true);
    const { error } = result.structuredContent;
    expect(error).toMatchObject({ code: 'TABLE_NOT_FOUND', fix: { kind: 'name-table', choices: expect.arrayContaining(['hotels', 'cities']) } });
    expect(text(result)).toContain(error.message);
    expect(text(result)).toMatch(/call again with the argument "table" set to one of: .*"hotels"/);
    expect(text(result)).not.toContain('--table');
  });

  it('refuses a question that needs a missing attribute with the extend_schema call, estimates it without extracting, then runs it on confirmation', async () => {
    const refused = await call('ask', { question: needsShuttle.question });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error).toMatchObject({ code: 'ATTRIBUTES_MISSING', fix: { kind: 'extend-schema', question: needsShuttle.question } });
    expect(text(refused)).toContain(`extend_schema and the arguments {"question":"${needsShuttle.question}"`);

    standIn.reset();
    const estimate = await call('extend_schema', { question: needsShuttle.question });
    expect(estimate.isError, text(estimate)).toBeFalsy();
    expect(estimate.structuredContent).toMatchObject({ confirmed: false, table: 'hotels', added_attributes: ['has_airport_shuttle'], documents: 50, calls: expect.any(Number) });
    expect(estimate.structuredContent.calls).toBeGreaterThan(0);
    expect(extractionCallCount(standIn.requests)).toBe(0);

    const progress: number[] = [];
    const run = await call('extend_schema', { question: needsShuttle.question, confirm: true }, { onprogress: (update) => progress.push(update.progress) });
    expect(run.isError, text(run)).toBeFalsy();
    expect(run.structuredContent).toMatchObject({ confirmed: true, added_attributes: ['has_airport_shuttle'], extraction_usage: { documents: 50 } });
    expect(rowsMatchGold(run.structuredContent.rows, needsShuttle.gold as never), JSON.stringify(run.structuredContent.rows)).toBe(true);
    expect(run.structuredContent.extraction_usage.calls).toBe(estimate.structuredContent.calls);
    expect(progress.at(-1)).toBe(50);
    expect(serverLog).toContain('has_airport_shuttle');

    // Now ask answers it without the tool.
    const answered = await call('ask', { question: needsShuttle.question });
    expect(answered.isError, text(answered)).toBeFalsy();
    expect(answered.structuredContent.rows).toEqual(run.structuredContent.rows);
  });

  it('wrote nothing but protocol messages to stdout', () => {
    expect(clientErrors).toEqual([]);
  });
});
