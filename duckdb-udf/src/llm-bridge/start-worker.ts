import { Worker, type TransferListItem } from 'node:worker_threads';

/**
 * Start a worker thread that runs the TypeScript module `moduleUrl` (through tsx, registered in
 * the worker; see typescript-worker-entry.mjs). `workerData` reaches the module unchanged.
 */
export function startWorker(moduleUrl: URL, workerData: Record<string, unknown>, transferList: TransferListItem[] = []): Worker {
  return new Worker(new URL('./typescript-worker-entry.mjs', import.meta.url), {
    workerData: { ...workerData, module: moduleUrl.href },
    transferList,
  });
}
