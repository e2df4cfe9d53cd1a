// Loaded with `node --require` into the CLI the benchmarks measure (bench/run-cli-measured.ts): at
// exit, writes the process's peak resident set size (in kilobytes) and its CPU time (user and
// system, all threads) to SRAG_BENCH_PEAK_FILE. CommonJS: an ES module given to `--import` is read
// through libuv's thread pool, which would start the pool before bin/srag.js sizes it for
// `srag ingest` (see there), and the benchmark would measure an ingest users do not run.
//
// The peak is VmHWM from /proc/self/status where there is one (Linux), getrusage's maxRSS
// elsewhere. getrusage is not the process's own peak on Linux: a child starts as a copy of its
// parent, and exec records that copy's resident size in the child's maxRSS (the kernel's
// exec_mmap → setmax_mm_hiwater_rss). A benchmark that holds a million pages' gold in its own
// process handed its srag child a maxRSS of 1,180 MB while srag's own peak (VmHWM) was 826 MB.
// VmHWM belongs to the memory map exec made: srag's alone.
'use strict';
const { readdirSync, readFileSync, writeFileSync } = require('node:fs');

/** The process's own peak resident size in kilobytes (VmHWM), or undefined where /proc has none. */
function ownPeakKilobytes() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

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
  const rusageKilobytes = process.resourceUsage().maxRSS;
  writeFileSync(file, JSON.stringify({ maxRssKilobytes: ownPeakKilobytes() ?? rusageKilobytes, rusageMaxRssKilobytes: rusageKilobytes, cpuMicroseconds: process.cpuUsage().user + process.cpuUsage().system, threads }));
});
