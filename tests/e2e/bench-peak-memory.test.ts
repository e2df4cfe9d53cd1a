import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reporterArguments } from '../../bench/run-cli-measured.ts';
import { runProcess } from '../helpers/run-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

const megabyte = 1024 * 1024;

describe('the peak memory the benchmarks report for the srag process they start', () => {
  // Linux only: elsewhere the reporter falls back to getrusage, and the copy is not counted the same way.
  it.runIf(process.platform === 'linux')('is the child\'s own peak, not the copy of the benchmark the child started as', async () => {
    // The benchmark's own memory at the spawn, as a million pages' gold held by the stand-in (1.1 GB there).
    const held = Buffer.alloc(256 * megabyte, 1);
    const peakFile = join(mkdtempSync(join(tmpdir(), 'srag-peak-')), 'peak.json');
    const run = await runProcess(process.execPath, [...reporterArguments, '-e', ''], { env: { ...process.env, SRAG_BENCH_PEAK_FILE: peakFile } });
    expect(run.status, run.stderr).toBe(0);
    expect(held.at(-1)).toBe(1);
    const report = JSON.parse(readFileSync(peakFile, 'utf8')) as { maxRssKilobytes: number; rusageMaxRssKilobytes: number };
    // A `node -e ''` alone: a few tens of MB.
    expect(report.maxRssKilobytes * 1024).toBeLessThan(160 * megabyte);
    // getrusage counts the parent's copy (the kernel records it at exec): what the 1 M-page bench
    // reported as srag's peak, 1,180 MB, where srag's own was 826 MB.
    expect(report.rusageMaxRssKilobytes * 1024).toBeGreaterThan(256 * megabyte);
  });

  // The benchmarks load the reporter before bin/srag.js, which sizes libuv's pool for `srag ingest`
  // before anything starts it: an ES module loaded with --import is read through the pool, which
  // then started with four threads, and the benchmark measured an ingest no user runs.
  it.runIf(process.platform === 'linux')('leaves libuv\'s thread pool unstarted, so that the CLI it is loaded into can still size it', async () => {
    const threads = async (nodeArguments: string[]) => {
      const run = await runProcess(process.execPath, [...nodeArguments, '-e',
        "process.env.UV_THREADPOOL_SIZE = '1'; require('node:fs').readFile('/proc/self/status', () => console.log(require('node:fs').readdirSync('/proc/self/task').length))"]);
      expect(run.status, run.stderr).toBe(0);
      return Number(run.stdout);
    };
    const alone = await threads([]);
    expect(alone).toBeGreaterThan(0);
    expect(await threads(reporterArguments)).toBe(alone);
  });
});
