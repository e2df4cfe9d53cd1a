import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../', import.meta.url));
const cliPath = path.join(repositoryRoot, 'bin/srag.js');
const peakReporter = path.join(repositoryRoot, 'bench/report-peak-memory.cjs');
/** The node arguments that load the reporter into the measured CLI (bench/report-peak-memory.cjs: why CommonJS). */
export const reporterArguments = ['--require', peakReporter];

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  milliseconds: number;
  /** Its own peak (VmHWM on Linux, see bench/report-peak-memory.cjs); 0 when the process died before its exit hook. */
  peakRssKilobytes: number;
  /** getrusage's maxRSS, which on Linux also counts the copy of this process the child started as; 0 as above. */
  rusagePeakRssKilobytes: number;
  /** User and system CPU of all its threads; 0 as above. */
  cpuMicroseconds: number;
  /** CPU per thread name at exit (Linux), `main` for the JavaScript thread; threads gone by then are not in it. */
  threadCpuMicroseconds: Record<string, number>;
}

/**
 * The real `srag` CLI in a child process, so that what it costs is srag's alone: wall time, and its
 * peak RSS and CPU from its own exit hook (bench/report-peak-memory.cjs). The child sees the
 * endpoint and settings in `environment`, none of this machine's OPENAI_ and SRAG_ variables;
 * `nodeArguments` go to node before the script (e.g. `--cpu-prof`, which NODE_OPTIONS refuses).
 */
export function runCliMeasured(args: string[], cwd: string, environment: Record<string, string>, nodeArguments: string[] = []): Promise<CliRun> {
  const peakFile = path.join(cwd, `peak-${process.hrtime.bigint()}.json`);
  const env: Record<string, string> = { SRAG_BENCH_PEAK_FILE: peakFile, ...environment };
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('OPENAI_') && !name.startsWith('SRAG_')) env[name] ??= value;
  }
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArguments, ...reporterArguments, cliPath, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (status) => {
      const milliseconds = performance.now() - started;
      let report: { maxRssKilobytes: number; rusageMaxRssKilobytes?: number; cpuMicroseconds: number; threads?: Record<string, number> } = { maxRssKilobytes: 0, cpuMicroseconds: 0 };
      try {
        report = JSON.parse(readFileSync(peakFile, 'utf8')) as typeof report;
        rmSync(peakFile);
      } catch {
        // no report: the process died before its exit hook
      }
      resolve({ status, stdout, stderr, milliseconds, peakRssKilobytes: report.maxRssKilobytes, rusagePeakRssKilobytes: report.rusageMaxRssKilobytes ?? report.maxRssKilobytes, cpuMicroseconds: report.cpuMicroseconds, threadCpuMicroseconds: report.threads ?? {} });
    });
  });
}
