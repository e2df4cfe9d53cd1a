import { setFlagsFromString } from 'node:v8';

/**
 * How much bytecode a function runs between V8's checks of whether to optimize it (its "interrupt
 * budget"): four times V8's default of 66 KB (Node 20). srag's CLI spends a run's first seconds
 * optimizing: at 3,000 pages V8's helper threads compiled ~90 functions with TurboFan (the
 * evidence check's largest, the batch run's loops) for ~0.6 s of CPU, a sixth of the whole run.
 * With a larger budget only what stays hot gets compiled: those threads' CPU fell from 1.19–1.22 s
 * to 0.84–0.93 s and the run's total from 1.04–1.12 to 0.96–1.03 ms per document (3 runs each);
 * 2× saved less, 8× and 16× cost more on the main thread than they saved (see the report of
 * issue 40, round 4). A long run loses nothing it keeps: what runs all along is optimized a little
 * later, once.
 */
const interruptBudgetBytes = 4 * 67_584;

/**
 * Sets it for this process (every thread; V8 reads it whenever it gives a function a new budget).
 * For srag's own processes only — the CLI sets it at start — never for a program that imports srag
 * as a library, whose engine settings are its own.
 */
export function delayOptimization(): void {
  setFlagsFromString(`--interrupt-budget=${interruptBudgetBytes}`);
}
