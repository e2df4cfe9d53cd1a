// Loaded with `node --import` by bench/scale-benchmark.ts and bench/srag-extract-scale.ts into the CLI
// they measure: at exit, writes the process's peak resident set size (getrusage, all threads, in
// kilobytes) and its CPU time (user and system, all threads) to SRAG_BENCH_PEAK_FILE.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.SRAG_BENCH_PEAK_FILE;
  if (file) writeFileSync(file, JSON.stringify({ maxRssKilobytes: process.resourceUsage().maxRSS, cpuMicroseconds: process.cpuUsage().user + process.cpuUsage().system }));
});
