/**
 * What exact DECIMAL arithmetic costs the spreadsheet SQL engine: `npx tsx bench/records-sql-decimals.ts
 * [--engine /other/checkout/records-sql/index.ts]`. Each query runs five times in this process over
 * range(300000) and the table gives the median CPU time of srag's process (user + system), so two
 * engines measured one after the other on a busy machine still compare. `--engine` loads another
 * checkout's engine (main's, say) to compare with: its integers and DOUBLE queries are the baseline
 * the decimal ones are read against.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({ options: { engine: { type: 'string' } } });
const entry = flags.engine ? pathToFileURL(resolve(flags.engine)).href : new URL('../records-sql/index.ts', import.meta.url).href;
const { InMemorySqlEngine } = (await import(entry)) as typeof import('../records-sql/index.ts');

const queries: Array<{ name: string; sql: string }> = [
  { name: 'integers: sum(range * 3 + 1)', sql: 'SELECT sum(range * 3 + 1) FROM range(300000)' },
  { name: 'DOUBLE: sum(range * 1.1e0)', sql: 'SELECT sum(range * 1.1e0) FROM range(300000)' },
  { name: 'decimal literal: sum(range * 1.1)', sql: 'SELECT sum(range * 1.1) FROM range(300000)' },
  { name: 'max(round(range * 1.005, 2))', sql: 'SELECT max(round(range * 1.005, 2)) FROM range(300000)' },
  { name: 'max(CAST(range / 3 AS DECIMAL(10,2)))', sql: 'SELECT max(CAST(range / 3 AS DECIMAL(10,2))) FROM range(300000)' },
  { name: 'count(*) WHERE range * 0.5 > 1000.25', sql: 'SELECT count(*) FROM range(300000) WHERE range * 0.5 > 1000.25' },
  { name: 'join ON over 4 M pairs (no decimals)', sql: 'SELECT count(*) FROM range(2000) a JOIN range(2000) b ON a.range = b.range' },
];

const engine = new InMemorySqlEngine({});
const rows: Array<{ query: string; cpuMilliseconds: number; answer: string }> = [];
for (const { name, sql } of queries) {
  const times: number[] = [];
  let answer = '';
  for (let run = 0; run < 5; run += 1) {
    const start = process.cpuUsage();
    answer = JSON.stringify((await engine.runReadOnlyQuery(sql, [])).rows);
    const used = process.cpuUsage(start);
    times.push((used.user + used.system) / 1000);
  }
  times.sort((left, right) => left - right);
  rows.push({ query: name, cpuMilliseconds: Math.round(times[2]!), answer });
}
console.log(`engine: ${entry}`);
console.table(rows);
