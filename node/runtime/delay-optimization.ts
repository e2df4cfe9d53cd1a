import { setFlagsFromString } from 'node:v8';

/**
 * srag's CLI lets V8 run a function four times as long as V8's default before it optimizes it
 * with TurboFan (on Node 20; see below). It spends a run's first seconds optimizing: at 3,000
 * pages V8's helper threads compiled ~90 functions with TurboFan (the evidence check's largest,
 * the batch run's loops) for ~0.6 s of CPU, a sixth of the whole run. With the later tier-up only
 * what stays hot gets compiled: on Node 20 those threads' CPU fell from 1.19–1.22 s to 0.84–0.93 s
 * and the run's total from 1.04–1.12 to 0.96–1.03 ms per document (3 runs each); 2× saved less,
 * 8× and 16× cost more on the main thread than they saved (see the report of issue 40, round 4).
 * A long run loses nothing it keeps: what runs all along is optimized a little later, once.
 *
 * TurboFan also compiles each function without inlining the functions it calls
 * (`--no-turbo-inlining`), where it is V8's only optimizing compiler (V8 ≤ 12: Node 20 and 22).
 * Inlining makes each compile larger — a function's callees are compiled again into it — and the
 * code it yields runs srag's work no faster: most of a document's time is spent in V8's builtins,
 * DuckDB and the kernel, not in calls between srag's small functions. Alternating with inlining on
 * (round 10 of issue 40; paired differences in ms of CPU per document, pairs lower):
 * - Node 20, 3,000 pages: -0.029 (7 of 10), -0.051 (8 of 12), -0.055 (10 of 10), +0.002 (6 of 12);
 *   10,000 pages: -0.042 (3 of 4); 100,000 pages: 0.646, 0.639 and 0.631 against 0.686, 0.813 and
 *   0.844, the JavaScript thread's share lower too, and peak RSS 302–307 MB against 305–333.
 * - Node 22, 3,000 pages: -0.058 (7 of 8).
 * - Node 24, where Maglev optimizes first, 3,000 pages: +0.026 (1 of 8): not set there.
 *
 * V8 prints "Error: unrecognized flag …" on stderr for a name it does not know (it does not
 * throw), and Node 22 and 24 printed that line at every srag command while `--interrupt-budget`
 * was set whatever the version. So the flag is chosen by V8's major version:
 * - V8 ≤ 11 (Node 20): `--interrupt-budget`, in bytes of bytecode run; default 67,584
 *   (`node --v8-options` of Node 20.20.2).
 * - V8 12 and later (Node 22: 12.4, Node 24: 13.6) have no `--interrupt-budget`: a function's
 *   budget is its bytecode's length times `--invocation-count-for-turbofan`, default 3,000
 *   (`node --v8-options` of Node 22.23.5 and 24.22.3). That at 4× was no lower at 3,000 pages,
 *   alternating with the default: Node 22, 0.78–1.43 (one outlier) against 0.75–1.08 ms per
 *   document, V8's helper threads lower but the main thread higher; Node 24 (Maglev on),
 *   0.73–0.81 against 0.77–0.80. So no budget is set there.
 */
export function optimizationDelayFlags(v8Version: string): string[] {
  const major = Number.parseInt(v8Version, 10);
  return [...major <= 11 ? [`--interrupt-budget=${4 * 67_584}`] : [], ...major <= 12 ? ['--no-turbo-inlining'] : []];
}

/**
 * Sets them for this process (every thread; V8 reads the budget whenever it gives a function a
 * new one, and the inlining setting at each compile). For srag's own processes only — the CLI
 * sets them at start — never for a program that imports srag as a library, whose engine settings
 * are its own.
 */
export function delayOptimization(): void {
  for (const flag of optimizationDelayFlags(process.versions.v8)) setFlagsFromString(flag);
}
