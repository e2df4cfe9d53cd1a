// npm run bench:sql-sandbox -- [--engine-from DIR] [--only NAME-PREFIX] [--process-memory MB] [--timeout-ms MS]
//
// What the sandbox that runs generated SQL costs on results that are large inside one cell (issue
// 42: `SELECT list(range(0, 100000000))` took `srag ask` to 9.3 GB and past 300 s): for each query
// below, the wall time, srag's own CPU, srag's peak resident memory and that of the sandbox's
// process (sampled from /proc every 20 ms, Linux) with its CPU, and how it ended. `--engine-from DIR` measures
// the DuckDbSqlEngine of another checkout (e.g. the main branch, before the sandbox process),
// whose queries run inside this process. One JSON line per query on stdout, and a table on stderr.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';

const { values: options } = parseArgs({
  options: {
    'engine-from': { type: 'string' },
    only: { type: 'string' },
    'process-memory': { type: 'string' },
    'timeout-ms': { type: 'string' },
  },
});

/** The repros of issue 42 and one legitimate large value of each nested kind. */
const queries: Array<{ name: string; sql: string }> = [
  { name: 'list of 100M (the repro)', sql: 'SELECT list(range(0, 100000000)) AS l FROM hotels LIMIT 1' },
  { name: 'list of 30M', sql: 'SELECT list(range(0, 30000000)) AS l FROM hotels LIMIT 1' },
  { name: 'list of 3M', sql: 'SELECT range(0, 3000000) AS l FROM hotels LIMIT 1' },
  { name: 'aggregated list of 3M', sql: 'SELECT list(i) AS l FROM range(0, 3000000) t(i)' },
  { name: 'list of 1M texts of 100', sql: "SELECT list(repeat('x', 100) || i) AS l FROM range(0, 1000000) t(i)" },
  { name: 'struct holding 3M', sql: "SELECT {'hotel': hotel_name, 'ids': range(0, 3000000)} AS s FROM hotels LIMIT 1" },
  { name: 'map of 1M', sql: 'SELECT map_from_entries(list_transform(range(0, 1000000), lambda i: {\'key\': i, \'value\': hotel_name})) AS m FROM hotels LIMIT 1' },
  { name: 'list of lists, 2 x 1.5M', sql: 'SELECT [range(0, 1500000), range(0, 1500000)] AS ll FROM hotels LIMIT 1' },
  { name: 'list of 1M fixed arrays', sql: 'SELECT list([i, i + 1, i + 2]::BIGINT[3]) AS a FROM range(0, 1000000) t(i)' },
  { name: 'JSON of 3M', sql: 'SELECT to_json(range(0, 3000000)) AS j FROM hotels LIMIT 1' },
  { name: 'levenshtein past the time limit', sql: "SELECT levenshtein(repeat('a', 60000), repeat('b', 60000)) AS d FROM hotels LIMIT 1" },
];

interface EngineModule { DuckDbSqlEngine: new (connection: unknown, limits?: Record<string, number>) => { runReadOnlyQuery(sql: string, tables: string[]): Promise<{ rows: unknown[][]; cut?: unknown }> } }
interface LimitsModule { sandboxLimits: Record<string, number> }

const root = resolve(options['engine-from'] ?? new URL('..', import.meta.url).pathname);
const { DuckDbSqlEngine } = await import(pathToFileURL(join(root, 'node/duckdb/duckdb-sql-engine.ts')).href) as EngineModule;
const { sandboxLimits } = await import(pathToFileURL(join(root, 'node/duckdb/sandbox/sandbox-limits.ts')).href) as LimitsModule;
const limits = {
  ...sandboxLimits,
  ...(options['process-memory'] ? { processMemoryMegabytes: Number(options['process-memory']) } : {}),
  ...(options['timeout-ms'] ? { timeoutMilliseconds: Number(options['timeout-ms']) } : {}),
};

const connection = await (await DuckDBInstance.create(':memory:')).connect();
await connection.run(`CREATE TABLE hotels AS SELECT 'Hotel ' || i AS hotel_name, 'docs/hotel-' || i || '.html' AS "_source" FROM range(50) t(i)`);
const engine = new DuckDbSqlEngine(connection, limits);

/** Resident and peak resident memory of a process, in MB (/proc/PID/status). */
function memoryOf(pid: number): { resident: number; peak: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const read = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1] ?? 0) / 1024;
    return { resident: read('VmRSS'), peak: read('VmHWM') };
  } catch {
    return undefined;
  }
}

/** CPU seconds a process used so far (/proc/PID/stat: user and system time, in clock ticks of 1/100 s). */
function cpuOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** This process's sandbox processes (not tsx's esbuild service, say). */
function childProcesses(): number[] {
  const children: number[] = [];
  for (const task of readdirSync('/proc/self/task')) {
    try {
      children.push(...readFileSync(`/proc/self/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number));
    } catch {
      // A thread that ended while we looked.
    }
  }
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sandbox-process');
    } catch {
      return false;
    }
  });
}

const rows: Array<Record<string, unknown>> = [];
// The first query starts the sandbox process (what each `srag ask` pays once); the second reuses it.
const measured = [
  { name: 'count(*), the first query', sql: 'SELECT count(*) AS n FROM hotels' },
  { name: 'count(*), the next query', sql: 'SELECT count(*) AS n FROM hotels' },
  ...queries.filter((candidate) => !options.only || candidate.name.startsWith(options.only)),
];
for (const query of measured) {
  let childPeak = 0;
  let selfPeak = 0;
  const childCpuAtStart = new Map(childProcesses().map((pid) => [pid, cpuOf(pid) ?? 0]));
  const childCpuSeen = new Map<number, number>();
  const sample = () => {
    selfPeak = Math.max(selfPeak, memoryOf(process.pid)?.resident ?? 0);
    for (const pid of childProcesses()) {
      childPeak = Math.max(childPeak, memoryOf(pid)?.resident ?? 0);
      const cpu = cpuOf(pid);
      if (cpu !== undefined) childCpuSeen.set(pid, cpu);
    }
  };
  const sampling = setInterval(sample, 20);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  let outcome: string;
  try {
    const result = await engine.runReadOnlyQuery(query.sql, ['hotels']);
    outcome = `${String(result.rows[0]?.[0]).length} characters${result.cut ? ', cut' : ''}`;
  } catch (error) {
    outcome = (error as Error).message;
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  sample();
  clearInterval(sampling);
  // A process killed between two samples loses its last 20 ms of CPU here.
  const childCpu = [...childCpuSeen].reduce((sum, [pid, seen]) => sum + seen - (childCpuAtStart.get(pid) ?? 0), 0);
  const row = {
    query: query.name, seconds: Number(seconds.toFixed(2)), srag_cpu_seconds: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)),
    sandbox_process_cpu_seconds: Number(childCpu.toFixed(2)),
    srag_peak_mb: Math.round(selfPeak), sandbox_process_peak_mb: Math.round(childPeak), outcome,
  };
  rows.push(row);
  process.stdout.write(`${JSON.stringify(row)}\n`);
}
process.stderr.write(`\nengine from ${root}; limits ${JSON.stringify(limits)}\n`);
for (const row of rows) {
  process.stderr.write(`${String(row.query).padEnd(34)} ${String(row.seconds).padStart(7)} s  cpu ${String(row.srag_cpu_seconds).padStart(6)} s + ${String(row.sandbox_process_cpu_seconds).padStart(6)} s  srag ${String(row.srag_peak_mb).padStart(5)} MB  sandbox ${String(row.sandbox_process_peak_mb).padStart(5)} MB  ${row.outcome}\n`);
}
connection.closeSync();
process.exit(0);
