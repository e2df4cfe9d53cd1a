import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// A child process, since the setting is process-wide and V8 tells a function's tier only to code
// run with --allow-natives-syntax. Each `new Function` is a fresh function, given its budget when
// it is first run: one made before `delayOptimization()` and one made after are compared.
const script = `
const { delayOptimization } = await import(${JSON.stringify(fileURLToPath(new URL('../../node/runtime/delay-optimization.ts', import.meta.url)))});
const callsUntilOptimized = () => {
  const f = new Function('n', 'let s = 0; for (let i = 0; i < 20; i++) s += (n * i) % 7; return s;');
  for (let calls = 1; calls <= 100000; calls += 1) {
    f(calls);
    // Optimized, or marked or being compiled for it (V8's OptimizationStatus bits 4, 8, 9, 10).
    if (%GetOptimizationStatus(f) & (16 | 256 | 512 | 1024)) return calls;
  }
  return Infinity;
};
const before = callsUntilOptimized();
delayOptimization();
console.log(JSON.stringify({ before, after: callsUntilOptimized() }));
`;

it('makes V8 run a function about four times as long before it optimizes it', () => {
  const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8' });
  const { before, after } = JSON.parse(output) as { before: number; after: number };
  expect(before).toBeGreaterThan(10);
  expect(after / before).toBeGreaterThan(3);
  expect(after / before).toBeLessThan(6);
});
