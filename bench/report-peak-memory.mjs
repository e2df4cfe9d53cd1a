// Loaded with `node --import` by bench/scale-benchmark.ts and bench/srag-extract-scale.ts into the CLI
// they measure: at exit, writes the process's peak resident set size (getrusage, all threads, in
// kilobytes) and its CPU time (user and system, all threads) to SRAG_BENCH_PEAK_FILE.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.SRAG_BENCH_PEAK_FILE;
  if (!file) return;
  const threads = {};
  try {
    for (const task of readdirSync('/proc/self/task')) {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      const key = task === String(process.pid) ? 'main' : name;
      threads[key] = (threads[key] ?? 0) + ticks * 10_000;
    }
  } catch { /* not Linux */ }
  writeFileSync(file, JSON.stringify({ maxRssKilobytes: process.resourceUsage().maxRSS, cpuMicroseconds: process.cpuUsage().user + process.cpuUsage().system, threads }));
});
