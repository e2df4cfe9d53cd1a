// What `srag mcp` pays for opening the database per tool call (it holds the file only while a call
// runs, so other srag processes can write between calls): the process's CPU time and the wall time
// per call of describe_tables and table_stats through the MCP server and the SDK's client (linked in
// memory), with the database opened per call as srag mcp does, against one Srag kept open, in the
// same run. The database: examples/cities/cities.csv and a generated table of ROWS rows, imported.
//
//   npx tsx bench/mcp-call-overhead.ts [calls=40] [rows=100000]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importTable } from '../node/duckdb/catalog/import-table.ts';
import { openSrag, type Srag } from '../node/index.ts';
import { createMcpServer } from '../node/mcp/create-mcp-server.ts';
import { sragWhileCalled, type UseSrag } from '../node/mcp/srag-while-called.ts';
import { SragStore } from '../node/duckdb/store/srag-store.ts';

const calls = Number(process.argv[2] ?? 40);
const rows = Number(process.argv[3] ?? 100_000);
if (![calls, rows].every((value) => Number.isInteger(value) && value > 0)) {
  console.error(`bench/mcp-call-overhead.ts takes the number of calls and of generated rows (positive whole numbers), not ${JSON.stringify(process.argv.slice(2))}`);
  process.exit(2);
}
const directory = mkdtempSync(join(tmpdir(), 'srag-mcp-bench-'));
const database = join(directory, 'bench.duckdb');
const generated = join(directory, 'readings.csv');
writeFileSync(generated, `station,city,reading\n${Array.from({ length: rows }, (_, index) => `s${index % 997},city ${index % 83},${(index * 7919) % 1000}`).join('\n')}\n`);
const store = await SragStore.open(database);
for (const file of ['examples/cities/cities.csv', generated]) await store.exclusive((connection) => importTable(connection, { file, databasePath: database }));
store.close();

const cpuMilliseconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

async function measure(useSrag: UseSrag): Promise<Record<string, { cpuMs: number; wallMs: number }>> {
  const server = createMcpServer({ useSrag, redact: (text) => text }, { version: 'bench' });
  const client = new Client({ name: 'bench', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  const results: Record<string, { cpuMs: number; wallMs: number }> = {};
  for (const [name, args] of [['describe_tables', {}], ['table_stats', { table: 'readings' }]] as const) {
    for (let warm = 0; warm < 3; warm += 1) await client.callTool({ name, arguments: args });
    const cpu = cpuMilliseconds();
    const wall = performance.now();
    for (let call = 0; call < calls; call += 1) {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    }
    results[name] = { cpuMs: (cpuMilliseconds() - cpu) / calls, wallMs: (performance.now() - wall) / calls };
  }
  await client.close();
  return results;
}

const open = () => openSrag(database, { mustExist: true });
// Interleaved twice, so that a busy moment of the machine weighs on both alike.
const runs: Array<{ mode: string; perCall: Record<string, { cpuMs: number; wallMs: number }> }> = [];
for (let round = 0; round < 2; round += 1) {
  runs.push({ mode: 'opened per call (srag mcp)', perCall: await measure(sragWhileCalled(open)) });
  const kept: Srag = await open();
  runs.push({ mode: 'kept open', perCall: await measure((work) => work(kept)) });
  kept.close();
}
for (const run of runs) {
  console.log(`${run.mode.padEnd(28)} ${Object.entries(run.perCall).map(([name, cost]) => `${name}: ${cost.cpuMs.toFixed(1)} ms CPU, ${cost.wallMs.toFixed(1)} ms wall`).join(' | ')}`);
}
console.log(JSON.stringify({ calls, rows, runs }));
rmSync(directory, { recursive: true, force: true });
