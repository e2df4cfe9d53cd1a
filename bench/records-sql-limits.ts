/**
 * The spreadsheet SQL engine under hostile generated SQL: `npm run bench:records-sql [-- --timeout-seconds 60]`
 *
 * Each query runs in a process of its own (so peak memory is the query's own) over a two-row table
 * of 4,000-character texts, the way =SRAG_ASK hands records-sql its rows. The table gives the
 * outcome (rows, or the first words of the error), the wall time and the peak resident memory,
 * with `SELECT 1` in the same run as the baseline: what the runtime and the engine cost before any
 * query. A query still running at the timeout is killed and shown as such (a backtracking matcher
 * never returns). Run it from another checkout to measure another version of the engine.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { InMemorySqlEngine } from '../records-sql/index.ts';

const queries: Array<{ name: string; sql: string }> = [
  { name: 'baseline', sql: 'SELECT 1' },
  { name: 'regexp (a+)+b', sql: "SELECT regexp_matches(repeat('a', 30), '(a+)+b')" },
  { name: 'LIKE %a%a%a%a%a%a%b', sql: "SELECT count(*) FROM notes WHERE body LIKE '%a%a%a%a%a%a%b'" },
  { name: 'range(100000) × range(1000)', sql: 'SELECT count(*) FROM range(100000) a, range(1000) b' },
  { name: 'IN list of 200,000', sql: `SELECT count(*) FROM range(1000) r WHERE r.range IN (${Array.from({ length: 200_000 }, (_, index) => index).join(', ')})` },
  { name: 'string_agg over 600,000 rows', sql: "SELECT length(string_agg(range::VARCHAR, '')) FROM range(600000)" },
  { name: 'join ON over 20 M pairs', sql: 'SELECT count(*) FROM range(4500) a JOIN range(4500) b ON a.range = b.range' },
  { name: 'repeat of a repeat', sql: "SELECT length(repeat(repeat(repeat('x', 10000), 10000), 10000))" },
  { name: '1 + 1 + … 100,000 terms', sql: `SELECT 1${' + 1'.repeat(100_000)}` },
  { name: 'constructor(1)', sql: 'SELECT constructor(1)' },
];

const { values: flags } = parseArgs({ options: { child: { type: 'string' }, 'timeout-seconds': { type: 'string', default: '60' } } });

if (flags.child !== undefined) {
  const { sql } = queries[Number(flags.child)]!;
  const engine = new InMemorySqlEngine({
    notes: { columns: [{ name: 'id', type: 'BIGINT' }, { name: 'body', type: 'VARCHAR' }], rows: [[1, 'a'.repeat(4000)], [2, 'ab'.repeat(2000)]] },
  });
  const start = performance.now();
  let outcome: string;
  try {
    outcome = `rows ${JSON.stringify((await engine.runReadOnlyQuery(sql, ['notes'])).rows)}`;
  } catch (error) {
    const name = (error as { code?: string }).code ?? (error as Error).name;
    outcome = `${name}: ${(error as Error).message.split('\n')[0]}`;
  }
  const milliseconds = performance.now() - start;
  process.stdout.write(JSON.stringify({ outcome, milliseconds, peakRssMegabytes: process.resourceUsage().maxRSS / 1024 }));
} else {
  const timeoutSeconds = Number(flags['timeout-seconds']);
  const script = fileURLToPath(import.meta.url);
  const rows: Array<{ query: string; outcome: string; seconds: string; peakRssMegabytes: string; rssOverBaseline: string }> = [];
  let baselineRss = 0;
  for (const [index, { name }] of queries.entries()) {
    const run = spawnSync(process.execPath, ['--import', 'tsx', script, '--child', String(index)], { encoding: 'utf8', timeout: timeoutSeconds * 1000, maxBuffer: 64 * 1024 * 1024 });
    if (run.error || run.status !== 0) {
      const reason = run.error && (run.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? `still running after ${timeoutSeconds} s, killed` : `process failed: ${(run.stderr || String(run.error)).trim().split('\n').pop()}`;
      rows.push({ query: name, outcome: reason, seconds: `> ${timeoutSeconds}`, peakRssMegabytes: '?', rssOverBaseline: '?' });
      continue;
    }
    const measured = JSON.parse(run.stdout) as { outcome: string; milliseconds: number; peakRssMegabytes: number };
    if (index === 0) baselineRss = measured.peakRssMegabytes;
    rows.push({
      query: name,
      outcome: measured.outcome.length > 90 ? `${measured.outcome.slice(0, 89)}…` : measured.outcome,
      seconds: (measured.milliseconds / 1000).toFixed(2),
      peakRssMegabytes: measured.peakRssMegabytes.toFixed(0),
      rssOverBaseline: `${(measured.peakRssMegabytes / baselineRss).toFixed(2)}×`,
    });
  }
  console.table(rows);
}
