import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run-process.ts';
import { repositoryRoot } from '../helpers/run-srag.ts';

function runBench(args: string[]) {
  return runProcess(process.execPath, ['--import', 'tsx', 'bench/ingest-benchmark.ts', ...args], { cwd: repositoryRoot });
}

describe('the ingest benchmark', () => {
  it('runs at a small size, prints every row and writes its figures as JSON (no timing asserted)', async () => {
    const outputDirectory = mkdtempSync(join(tmpdir(), 'srag-bench-test-'));
    const run = await runBench(['--small', '--output-dir', outputDirectory]);
    expect(run.status, run.stderr).toBe(0);
    for (const row of [
      /^ingest throughput, concurrency 1 +[\d.,]+ docs\/s \([\d.]+ s\) +[\d.,]+ docs\/s \([\d.]+ s, \d+ calls\) +[\d.]+ /m,
      /^ingest throughput, concurrency 8 /m,
      /^ingest throughput, concurrency 32 /m,
      /^per-document overhead, every reply cached +[\d.,]+ ms\/doc/m,
      /^prompt tokens per document: fixed prefix +[\d,]+ \(instructions \+ schema; [\d,]+ for a batch\)/m,
      /^prompt tokens per document: the document +[\d,]+ mean/m,
      /^prompt tokens per document: prefix share +[\d.]+ %/m,
      /^prompt tokens sent per document, one document per call +[\d,]+ \(16 calls, largest [\d,]+\)/m,
      /^prompt tokens sent per document, default batching +[\d,]+ \([\d,]+ calls, largest [\d,]+\) +≤ 600 \(goal\)/m,
      /^cached prompt tokens reported, default batching +[\d,]+ of [\d,]+ /m,
      /^dry-run estimate vs sent, default batching +[\d,]+ vs [\d,]+ prompt tokens, \d+ vs \d+ calls +within 25 % +[\d.]+/m,
      /^table rows as one document per call, default batching +16 of 16 identical, 0 different +16 identical +1\.00/m,
      /^table rows as one document per call, batching, every shared reply swapping two ids +16 of 16 identical, 0 different, \d+ calls +16 identical +1\.00/m,
      // srag ingest itself, in a child process: its CPU per document, start cost, memory, tokens sent and wall time.
      // The same JavaScript work before and after each evidence run: how fast the machine was meanwhile.
      /^reference workload, the same JavaScript beside each evidence run \(CPU; how fast the machine was\) +[\d,]+(–[\d,]+)? ms \(median [\d,]+\)/m,
      /^srag CPU per document, 100 pages, evidence +[\d.]+ ms\/doc \([\d.]+ s, main thread [\d.]+ s; 1 runs\) +≤ 1 ms \(goal\)/m,
      /^srag CPU per document, 100 pages, --no-evidence +[\d.]+ ms\/doc/m,
      // Past the first 100 pages: the 200-page run less the 100-page run (may read below zero at this size).
      /^srag CPU per document, pages 101–200 \(the 200-page run less the median 100-page run\) +-?[\d.]+ ms\/doc \(main thread -?[\d.]+\)/m,
      /^srag CPU per document, 200 pages, evidence \(one run\) +[\d.]+ ms\/doc \([\d.]+ s, main thread [\d.]+ s\) +– +– /m,
      /^srag CPU of a one-page ingest \(start and finish\) +[\d.]+ s/m,
      /^srag CPU per document, 100 pages, evidence, replies one at a time \(4 in flight, 50 ms each\) +[\d.]+ ms\/doc \(\d+ calls, [\d.]+ s\)/m,
      /^peak RSS, 100 pages +[\d,]+ MB/m,
      /^prompt tokens sent per document, 100 pages, evidence +[\d,]+ \(\d+ calls\)/m,
      /^prompt tokens sent per document, 100 pages, --no-evidence +[\d,]+ \(\d+ calls\)/m,
      /^wall time, 100 pages, replies after 50 ms, 64 in flight +[\d.]+ s \(\d+ calls; srag CPU [\d.]+ s\) +[\d.]+ s/m,
      /^peak RSS, 200 pages +[\d,]+ MB/m,
    ]) expect(run.stdout).toMatch(row);

    const files = readdirSync(outputDirectory);
    expect(files).toHaveLength(1);
    const saved = JSON.parse(readFileSync(join(outputDirectory, files[0]!), 'utf8'));
    expect(saved.settings).toEqual({ documents: 16, latencyMs: 20, memoryDocuments: 200, cliDocuments: 100, repeats: 1, cliOnly: false });
    expect(saved.results.inProcess.throughput.map((entry: { concurrency: number }) => entry.concurrency)).toEqual([1, 8, 32]);
    expect(saved.results.cli.memory.peakRssMegabytes).toBeGreaterThan(0);
    expect(saved.results.cli.referenceMilliseconds).toHaveLength(2);
    // Short pages share calls with or without evidence; without quotes a record is shorter, so more share one.
    expect(saved.results.cli.noEvidence[0].calls).toBeLessThan(saved.settings.cliDocuments);
    expect(saved.results.cli.noEvidence[0].calls).toBeLessThanOrEqual(saved.results.cli.evidence[0].calls);
    // Short pages share calls: fewer prompt tokens per document than one document per call.
    const [single, batched] = saved.results.inProcess.promptTokens.sent as Array<{ perDocument: number; calls: number }>;
    expect(batched!.calls).toBeLessThan(single!.calls);
    expect(batched!.perDocument).toBeLessThan(single!.perDocument);
    // A model swapping ids costs more calls (the shared calls are split), never a moved value.
    expect(saved.results.inProcess.exactness.swapIdsCalls).toBeGreaterThan(batched!.calls);
    for (const entry of saved.results.inProcess.promptTokens.sent as Array<{ sent: number; estimatedPromptTokens: number }>) {
      expect(Math.abs(entry.estimatedPromptTokens - entry.sent) / entry.sent).toBeLessThanOrEqual(0.25);
    }
  });
});

describe('the moved-documents benchmark', () => {
  it('runs at a small size: every record follows its renamed directory with no call, the deleted ones are found and pruned (no timing asserted)', async () => {
    const outputDirectory = mkdtempSync(join(tmpdir(), 'srag-bench-moved-test-'));
    const run = await runProcess(process.execPath, ['--import', 'tsx', 'bench/moved-documents.ts', '--documents', '300', '--output-dir', outputDirectory], { cwd: repositoryRoot });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^ {2}their directory renamed: every record follows +[\d.]+ s = [\d.]+× the rerun; 300 moved, 0 model calls$/m);
    const files = readdirSync(outputDirectory);
    expect(files).toHaveLength(1);
    expect(JSON.parse(readFileSync(join(outputDirectory, files[0]!), 'utf8'))).toMatchObject({ documents: 300, moved: 300, modelCalls: 0, keptDocuments: 3 });
  });
});
