// Entry of srag's worker threads. The module to run is named in workerData: a bundle (see
// worker-bundle.ts), built JavaScript, or — when neither is at hand — the TypeScript source, for
// which the worker registers tsx itself first (module hooks do not pass from a thread to the
// workers it starts: bin/srag.js registers tsx on the main thread only, vitest transforms with
// its own).
import { workerData } from 'node:worker_threads';

try {
  if (workerData.registerTypeScript) (await import('tsx/esm/api')).register();
  await import(workerData.module);
} catch (error) {
  // The thread that started this worker may be blocked waiting for it: say so through the shared buffer.
  if (workerData.control) {
    const control = new Int32Array(workerData.control);
    Atomics.store(control, 2, 1);
    Atomics.notify(control, 0);
  }
  throw error;
}
