// Loaded with `node --import` by bench/scale-benchmark.ts into the CLI it measures: at exit, writes
// the process's peak resident set size (getrusage, all threads, in kilobytes) to SRAG_BENCH_PEAK_FILE.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const file = process.env.SRAG_BENCH_PEAK_FILE;
  if (file) writeFileSync(file, JSON.stringify({ maxRssKilobytes: process.resourceUsage().maxRSS }));
});
