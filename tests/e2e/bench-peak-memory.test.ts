import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

const reporter = pathToFileURL(join(repositoryRoot, 'bench/report-peak-memory.mjs')).href;
const megabyte = 1024 * 1024;

describe('the peak memory the benchmarks report for the srag process they start', () => {
  // Linux only: elsewhere the reporter falls back to getrusage, and the copy is not counted the same way.
  it.runIf(process.platform === 'linux')('is the child\'s own peak, not the copy of the benchmark the child started as', async () => {
    // The benchmark's own memory at the spawn, as a million pages' gold held by the stand-in (1.1 GB there).
    const held = Buffer.alloc(256 * megabyte, 1);
    const peakFile = join(mkdtempSync(join(tmpdir(), 'srag-peak-')), 'peak.json');
    const run = await runProcess(process.execPath, ['--import', reporter, '-e', ''], { env: { ...process.env, SRAG_BENCH_PEAK_FILE: peakFile } });
    expect(run.status, run.stderr).toBe(0);
    expect(held.at(-1)).toBe(1);
    const report = JSON.parse(readFileSync(peakFile, 'utf8')) as { maxRssKilobytes: number; rusageMaxRssKilobytes: number };
    // A `node -e ''` alone: a few tens of MB.
    expect(report.maxRssKilobytes * 1024).toBeLessThan(160 * megabyte);
    // getrusage counts the parent's copy (the kernel records it at exec): what the 1 M-page bench
    // reported as srag's peak, 1,180 MB, where srag's own was 826 MB.
    expect(report.rusageMaxRssKilobytes * 1024).toBeGreaterThan(256 * megabyte);
  });
});
