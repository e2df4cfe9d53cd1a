import { Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';
import { readyWorkerBundle } from './worker-bundle.ts';

/**
 * Start a worker thread that runs `moduleUrl`: its bundle when one is ready for the current
 * sources (see `prepareWorkerBundle`), the module itself when it is JavaScript (a built copy), or
 * else the TypeScript through tsx registered in the worker — which costs most of a second, since
 * every file goes through the loader hooks. `workerData` reaches the module unchanged;
 * `resourceLimits` bound the thread's own V8 heap (Node ends a worker that exceeds them).
 */
export function startWorker(moduleUrl: URL, workerData: Record<string, unknown>, transferList: TransferListItem[] = [], resourceLimits?: ResourceLimits): Worker {
  const typeScript = /\.[cm]?ts$/.test(moduleUrl.pathname);
  const bundle = typeScript ? readyWorkerBundle(moduleUrl) : undefined;
  return new Worker(new URL('./worker-entry.mjs', import.meta.url), {
    workerData: { ...workerData, module: bundle?.href ?? moduleUrl.href, registerTypeScript: typeScript && !bundle },
    transferList,
    ...(resourceLimits ? { resourceLimits } : {}),
  });
}
