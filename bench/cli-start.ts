// How fast the installed `srag` starts: `npm pack`, install the tarball into a temporary project,
// then the median of N runs each of `srag --help`, `srag --version` and `node -e 0` (the baseline:
// what starting Node alone costs on this machine, in the same run). Goal: `srag --help` ≤ 400 ms.
//
//   npx tsx bench/cli-start.ts [runs=15]
import { spawnSync } from 'node:child_process';
import { installPackedPackage } from '../tests/helpers/install-packed-package.ts';

const runs = Number(process.argv[2] ?? 15);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`bench:cli-start takes one argument, the number of runs (a positive whole number, default 15), not ${JSON.stringify(process.argv[2])}: npm run bench:cli-start -- 15`);
  process.exit(2);
}
const installed = await installPackedPackage();
console.log(`installed ${installed.tarball} into ${installed.project}`);

const commands: Record<string, [string, string[]]> = {
  'node -e 0 (baseline)': [process.execPath, ['-e', '0']],
  'srag --help': [installed.command, ['--help']],
  'srag --version': [installed.command, ['--version']],
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((name) => [name, []]));
// Interleaved, so that a busy moment of the machine weighs on every command alike.
for (let run = 0; run < runs; run += 1) {
  for (const [name, [command, args]] of Object.entries(commands)) {
    const started = process.hrtime.bigint();
    const result = spawnSync(command, args, { cwd: installed.project, stdio: ['ignore', 'pipe', 'pipe'] });
    const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== 0) throw new Error(`${name} exited with ${result.status}: ${result.stderr}`);
    times[name]!.push(elapsed);
  }
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const baseline = median(times['node -e 0 (baseline)']!);
for (const [name, values] of Object.entries(times)) {
  const value = median(values);
  console.log(`${name.padEnd(22)} median ${value.toFixed(0).padStart(5)} ms  (${(value / baseline).toFixed(2)}× baseline, +${(value - baseline).toFixed(0)} ms; ${runs} runs)`);
}
console.log(`goal: srag --help ≤ 400 ms — ${median(times['srag --help']!) <= 400 ? 'met' : 'not met'} on this machine`);
