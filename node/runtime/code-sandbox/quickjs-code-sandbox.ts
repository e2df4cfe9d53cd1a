import type { Worker } from 'node:worker_threads';
import type { CodeSandbox, SandboxCallResult, SandboxFunction } from '../../../core/index.ts';
import { startWorker } from '../workers/start-worker.ts';
import { prepareWorkerBundle } from '../workers/worker-bundle.ts';
import { defaultSandboxLimits, sandboxWorkerResourceLimits, type SandboxLimits } from './sandbox-limits.ts';
import type { SandboxReady, SandboxRequest, SandboxResponse, SandboxWorkerData } from './sandbox-protocol.ts';

const workerUrl = new URL('./quickjs-sandbox-worker.ts', import.meta.url);

/** Time a worker gets beyond the calls' own limits before it is ended (copying the text in and the results out). */
const defaultGraceMs = 2_000;
/** Time a new worker gets to start and load QuickJS (a WebAssembly compile) before the sandbox is unavailable. */
const startupMs = 30_000;

interface RunningWorker {
  thread: Worker;
  progress: Int32Array;
  /** Rejects the request in flight when the thread dies. */
  onExit: (error: Error) => void;
}

/**
 * The code-sandbox port over QuickJS compiled to WebAssembly (`quickjs-emscripten`), in a worker
 * thread of its own: the generated code runs in a QuickJS realm holding nothing of Node, each call
 * in a runtime and context made for it alone (nothing persists from one call to the next), with a
 * heap and stack limit, interrupted at its deadline; the WebAssembly memory and the worker's V8
 * heap are bounded too (see `sandboxMemoryBytes`, `sandboxWorkerResourceLimits`).
 * A call that overruns anyway (QuickJS checks the deadline only every few thousand operations, and
 * one operation may be slow) is stopped by ending the worker: that function gets a `time-limit`
 * failure, the other functions run again in a fresh worker. Requests run one at a time, so that a
 * deadline counts the call's own time; a worker's start is not counted (it says when QuickJS is
 * loaded). QuickJS is loaded on the first call, not at import.
 */
export class QuickJsCodeSandbox implements CodeSandbox {
  private worker: RunningWorker | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  constructor(private readonly limits: SandboxLimits = defaultSandboxLimits, private readonly graceMs = defaultGraceMs) {}

  runFunctions(functions: readonly SandboxFunction[], text: string): Promise<SandboxCallResult[]> {
    const next = this.queue.then(() => this.runAll(functions, text));
    this.queue = next.catch(() => undefined);
    return next;
  }

  async close(): Promise<void> {
    await this.queue;
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.thread.terminate();
  }

  private async runAll(functions: readonly SandboxFunction[], text: string): Promise<SandboxCallResult[]> {
    const results: SandboxCallResult[] = new Array(functions.length);
    let remaining = functions.map((func, index) => ({ func, index }));
    while (remaining.length > 0) {
      let outcome: { results: SandboxCallResult[] } | { overran: number };
      try {
        outcome = await this.request(remaining.map(({ func }) => func), text);
      } catch (error) {
        const message = `the sandbox is unavailable: ${(error as Error).message.split('\n')[0]}`;
        for (const { index } of remaining) results[index] = { failure: { kind: 'unavailable', message } };
        break;
      }
      if ('results' in outcome) {
        outcome.results.forEach((result, position) => { results[remaining[position]!.index] = result; });
        break;
      }
      const stopped = remaining[outcome.overran]!;
      results[stopped.index] = { failure: { kind: 'time-limit', message: `did not stop at the time limit of ${this.limits.timeMs} ms per call; its sandbox was ended` } };
      // What ran before it in the ended worker is lost with it: those run again, the rest for the first time.
      remaining = remaining.filter((_, position) => position !== outcome.overran);
    }
    return results;
  }

  /** One request to the worker; `overran` names the function the worker was stuck in when it was ended. */
  private async request(functions: readonly SandboxFunction[], text: string): Promise<{ results: SandboxCallResult[] } | { overran: number }> {
    const worker = await this.start();
    const id = this.nextId++;
    const budget = this.limits.timeMs * (functions.length + 1) + this.graceMs;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const position = Atomics.load(worker.progress, 0);
        worker.thread.off('message', onMessage);
        this.worker = undefined;
        void worker.thread.terminate();
        if (position >= 0 && position < functions.length) resolve({ overran: position });
        else reject(new Error(`the sandbox worker did not answer within ${budget} ms`));
      }, budget);
      const onMessage = (response: SandboxResponse) => {
        if (response.id !== id) return;
        clearTimeout(timer);
        worker.thread.off('message', onMessage);
        // Forgotten before the next request could be posted to it: it exits once it has answered.
        if (response.retiring && this.worker === worker) this.worker = undefined;
        resolve({ results: response.results });
      };
      worker.onExit = (error) => {
        clearTimeout(timer);
        worker.thread.off('message', onMessage);
        reject(error);
      };
      worker.thread.on('message', onMessage);
      worker.thread.postMessage({ id, functions, text } satisfies SandboxRequest);
    });
  }

  private async start(): Promise<RunningWorker> {
    if (this.worker) return this.worker;
    await prepareWorkerBundle(workerUrl);
    const progress = new SharedArrayBuffer(4);
    new Int32Array(progress)[0] = -1;
    const thread = startWorker(workerUrl, { limits: this.limits, progress } satisfies SandboxWorkerData as unknown as Record<string, unknown>, [], sandboxWorkerResourceLimits(this.limits));
    // The worker never keeps the process alive: a request in flight holds its own timer.
    thread.unref();
    const worker: RunningWorker = { thread, progress: new Int32Array(progress), onExit: () => undefined };
    const died = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      worker.onExit(error);
    };
    thread.on('error', (error) => died(error));
    thread.on('exit', (code) => died(new Error(`the sandbox worker stopped (exit code ${code})`)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        void thread.terminate();
        reject(new Error(`the sandbox worker did not start within ${startupMs / 1000} s`));
      }, startupMs);
      worker.onExit = (error) => {
        clearTimeout(timer);
        reject(error);
      };
      thread.once('message', (ready: SandboxReady) => {
        clearTimeout(timer);
        worker.onExit = () => undefined;
        if (ready.problem === undefined) return resolve();
        void thread.terminate();
        reject(new Error(ready.problem));
      });
    });
    this.worker = worker;
    return worker;
  }
}
