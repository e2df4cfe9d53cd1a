import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { optimizationDelayFlags } from '../../node/runtime/delay-optimization.ts';
import { heapGrowthFlags } from '../../node/runtime/limit-heap-growth.ts';

// A child process, since the setting is process-wide and V8 tells a function's tier only to code
// run with --allow-natives-syntax. Each `new Function` is a fresh function, given its budget when
// it is first run: one made before `delayOptimization()` and one made after are compared.
const script = `
const { delayOptimization } = await import(${JSON.stringify(fileURLToPath(new URL('../../node/runtime/delay-optimization.ts', import.meta.url)))});
const callsUntilOptimized = () => {
  const f = new Function('n', 'let s = 0; for (let i = 0; i < 20; i++) s += (n * i) % 7; return s;');
  for (let calls = 1; calls <= 100000; calls += 1) {
    f(calls);
    // Optimized by TurboFan, or marked or being compiled for it (V8's OptimizationStatus bits 4, 8, 9, 10).
    if (%GetOptimizationStatus(f) & (16 | 256 | 512 | 1024)) return calls;
  }
  return Infinity;
};
const before = callsUntilOptimized();
delayOptimization();
console.log(JSON.stringify({ before, after: callsUntilOptimized() }));
`;

describe('delayOptimization', () => {
  // Node 20 only: V8 12 and later (Node 22, 24) get no such budget (see delay-optimization.ts).
  it.runIf(optimizationDelayFlags(process.versions.v8).some((flag) => flag.startsWith('--interrupt-budget=')))('makes V8 run a function about four times as long before it optimizes it', () => {
    const output = execFileSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '--eval', script], { encoding: 'utf8' });
    const { before, after } = JSON.parse(output) as { before: number; after: number };
    expect(before).toBeGreaterThan(10);
    expect(after / before).toBeGreaterThan(3);
    expect(after / before).toBeLessThan(6);
  });

  it('names the setting as the running V8 does: a name it does not know is an error line at every srag command', () => {
    // What this Node's V8 accepts, from its own list; V8 prints "Error: unrecognized flag" on stderr for any other.
    const known = new Set([...execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).matchAll(/^ {2}--([a-z0-9-]+) \(/gm)].map((match) => match[1]));
    // A boolean is listed under its own name: --no-turbo-inlining as --turbo-inlining.
    for (const flag of [...optimizationDelayFlags(process.versions.v8), ...heapGrowthFlags()]) expect(known, flag).toContain(/^--(?:no-)?([a-z0-9-]+?)(?:=|$)/.exec(flag)![1]);
  });

  // V8 says what TurboFan inlines with --trace-turbo-inlining (on stdout): a tiny function called in
  // a loop is inlined by default, and not after `delayOptimization()`.
  it.runIf(optimizationDelayFlags(process.versions.v8).includes('--no-turbo-inlining'))('makes TurboFan compile each function without inlining what it calls', () => {
    const inlining = (delayed: boolean) => execFileSync(process.execPath, ['--allow-natives-syntax', '--trace-turbo-inlining', '--import', 'tsx', '--input-type=module', '--eval', `
${delayed ? `const { delayOptimization } = await import(${JSON.stringify(fileURLToPath(new URL('../../node/runtime/delay-optimization.ts', import.meta.url)))});
delayOptimization();` : ''}
const f = new Function('x', 'const add = (a, b) => a + b; let s = 0; for (let i = 0; i < 10; i++) s += add(x, i); return s;');
%PrepareFunctionForOptimization(f); f(1); f(2); %OptimizeFunctionOnNextCall(f); f(3);
`], { encoding: 'utf8' }).split('\n').filter((line) => line.startsWith('Inlining ') && line.includes('SharedFunctionInfo add>'));
    // Inlined at least once without the flags: twice when V8 happened to compile f again (once in a
    // full suite on a loaded machine); never with them.
    expect(inlining(false).length).toBeGreaterThanOrEqual(1);
    expect(inlining(true)).toEqual([]);
  });

  it('sets --interrupt-budget for V8 11 only (V8 12 and later have no such flag), and --no-turbo-inlining up to V8 12 (V8 13 optimizes with Maglev first)', () => {
    // process.versions.v8 of Node 20.20.2, 22.23.5 and 24.22.3 (the last two list no --interrupt-budget in --v8-options).
    expect(optimizationDelayFlags('11.3.244.8-node.38')).toEqual(['--interrupt-budget=270336', '--no-turbo-inlining']);
    expect(optimizationDelayFlags('12.4.254.21-node.57')).toEqual(['--no-turbo-inlining']);
    expect(optimizationDelayFlags('13.6.233.17-node.63')).toEqual([]);
  });
});
