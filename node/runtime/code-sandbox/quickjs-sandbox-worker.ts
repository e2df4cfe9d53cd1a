// The code sandbox's worker thread: QuickJS compiled to WebAssembly runs the generated functions.
// Every call gets a QuickJS context of its own — a realm with its own global object and built-ins —
// made for it and freed after it: the function is compiled anew in it and called once, so nothing
// it leaves behind (a global, a counter in a closure, a changed prototype) exists for the next
// call. An extractor that counted its calls agreed with the model on the 8 checked documents and
// read other values after them (issue 42) while the runtime was kept per function.
//
// The contexts of one request (one document) share a QuickJS runtime, made for the request and
// freed after it, which holds the document's text once (a copy into QuickJS costs ~65 ns a
// character; made for each of 11 functions it was most of a document's time). The text, an
// immutable string, is the only value two calls of a request share: QuickJS keeps nothing else per
// runtime that code can reach (atoms and shapes are not values; the job queue is never run; the
// symbol registry cannot be listed). A call stopped at a bound, or whose context could not be
// freed, takes the runtime with it: the request's next call gets a new one.
//
// Nothing of Node exists in the realm: no process, require, import of modules, file system or
// network. QuickJS's interrupt handler stops a call at its deadline; a call that does not come back
// anyway (QuickJS polls the handler only every few thousand operations) is ended by the main
// thread, which terminates this worker — see QuickJsCodeSandbox.
//
// Memory is bounded by the WebAssembly memory itself, not by QuickJS's heap limit alone: that limit
// let an extractor pushing arrays (`new Array(1e5).fill(text)`) grow the module's memory to its
// 2 GiB maximum, and strings built in a loop to 640 MB (measured, quickjs-emscripten 0.32). The
// module gets a memory of at most `sandboxMemoryBytes(limits)`; an allocation past it fails inside
// QuickJS as "out of memory", and the call fails with a `memory-limit`.
import { DefaultIntrinsics, newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import { parentPort, workerData } from 'node:worker_threads';
import type { SandboxCallResult, SandboxFailure, SandboxFunction } from '../../../core/index.ts';
import { sandboxMemoryBytes, webAssemblyPageBytes, webAssemblyStartBytes } from './sandbox-limits.ts';
import type { SandboxReady, SandboxRequest, SandboxResponse, SandboxWorkerData } from './sandbox-protocol.ts';

const { limits, progress: progressBuffer } = workerData as SandboxWorkerData;
const progress = new Int32Array(progressBuffer);

/** Typed arrays allocate outside QuickJS's heap limit; an extractor reads text and has no use for them. */
const intrinsics = { ...DefaultIntrinsics, TypedArrays: false };

/** The one WebAssembly constructor used here (the root project's lib declares WebAssembly's types, not the global). */
const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => object } }).WebAssembly;

// Loaded as the worker starts, and said so: the main thread times requests from then on.
let quickJs: Promise<QuickJSWASMModule> | undefined = loadQuickJs();

quickJs.then(
  () => parentPort!.postMessage({ ready: true } satisfies SandboxReady),
  (error: unknown) => parentPort!.postMessage({ ready: true, problem: loadProblem(error) } satisfies SandboxReady),
);

parentPort!.on('message', (request: SandboxRequest) => {
  void run(request).then(({ results, retire }) => {
    parentPort!.postMessage({ id: request.id, results, ...(retire ? { retiring: true } : {}) } satisfies SandboxResponse);
    // A runtime that could not be freed keeps its memory in the module for good: this worker ends
    // once it has answered, and the next request starts a fresh one (see QuickJsCodeSandbox.start).
    if (retire) process.exit(0);
  });
});

async function run(request: SandboxRequest): Promise<{ results: SandboxCallResult[]; retire: boolean }> {
  let module: QuickJSWASMModule;
  try {
    quickJs ??= loadQuickJs();
    module = await quickJs;
  } catch (error) {
    quickJs = undefined;
    const failure: SandboxFailure = { kind: 'unavailable', message: loadProblem(error) };
    return { results: request.functions.map(() => ({ failure })), retire: false };
  }
  const results: SandboxCallResult[] = [];
  let retire = false;
  let shared: RequestRuntime | undefined;
  for (const [position, func] of request.functions.entries()) {
    Atomics.store(progress, 0, position);
    let called: { result: SandboxCallResult; spoiled: boolean };
    try {
      shared ??= openRuntime(module, request.text);
      called = call(shared, func);
    } catch (error) {
      // The host itself failed inside the WebAssembly (a stack it could not grow, memory it could
      // not get): nothing of this module is trusted any more; the next call loads QuickJS anew.
      quickJs = undefined;
      called = { result: { failure: { kind: 'unavailable', message: `the sandbox broke while running it (${String((error as Error)?.message ?? error).split('\n')[0]}); it was restarted` } }, spoiled: true };
    }
    results.push(called.result);
    if (called.spoiled && shared) {
      if (!closeRuntime(shared)) retire = true;
      shared = undefined;
    }
  }
  if (shared && !closeRuntime(shared)) retire = true;
  Atomics.store(progress, 0, -1);
  return { results, retire };
}

function loadProblem(error: unknown): string {
  return `QuickJS could not be loaded: ${String((error as Error)?.message ?? error).split('\n')[0]}`;
}

/** The QuickJS module over a WebAssembly memory that cannot grow past the sandbox's bound. */
async function loadQuickJs(): Promise<QuickJSWASMModule> {
  const variant = (await import('@jitl/quickjs-wasmfile-release-sync')).default;
  const wasmMemory = new Memory({ initial: webAssemblyStartBytes / webAssemblyPageBytes, maximum: sandboxMemoryBytes(limits) / webAssemblyPageBytes });
  return newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory }));
}

/** A request's QuickJS runtime, with the document's text in it and the deadline its interrupt handler reads. */
interface RequestRuntime {
  runtime: QuickJSRuntime;
  /** The context the text was made in; no code runs in it, it is freed with the text. */
  holder: QuickJSContext;
  text: QuickJSHandle;
  deadline: { at: number };
}

function openRuntime(module: QuickJSWASMModule, text: string): RequestRuntime {
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const deadline = { at: Date.now() + limits.timeMs };
  runtime.setInterruptHandler(() => Date.now() > deadline.at);
  const holder = runtime.newContext({ intrinsics: {} });
  return { runtime, holder, text: holder.newString(text), deadline };
}

/** Frees the runtime; false when it could not be (QuickJS asserts it holds no objects; a call stopped at a bound can break that). */
function closeRuntime(shared: RequestRuntime): boolean {
  try {
    shared.text.dispose();
    shared.holder.dispose();
    shared.runtime.dispose();
    return true;
  } catch {
    // What it holds stays in the module's memory for good: the worker ends after this request.
    quickJs = undefined;
    return false;
  }
}

/**
 * One call in a context made for it, in the request's runtime. The function source is wrapped so
 * that the call returns JSON text: a value that is not plain data (a function, a cycle) fails
 * inside the sandbox, within its limits. `spoiled` when the runtime is not to be used again.
 */
function call(shared: RequestRuntime, func: SandboxFunction): { result: SandboxCallResult; spoiled: boolean } {
  shared.deadline.at = Date.now() + limits.timeMs;
  const context = shared.runtime.newContext({ intrinsics });
  const result = callIn(context, func, shared.text, shared.deadline);
  let freed = true;
  try {
    context.dispose();
  } catch {
    freed = false;
  }
  const stopped = 'failure' in result && (result.failure.kind === 'time-limit' || result.failure.kind === 'memory-limit');
  return { result, spoiled: stopped || !freed };
}

function callIn(context: QuickJSContext, func: SandboxFunction, text: QuickJSHandle, deadline: { at: number }): SandboxCallResult {
  const wrapper = `(function (extract) {
  if (typeof extract !== 'function') throw new TypeError('the source is not a function expression (it is ' + (extract === null ? 'null' : typeof extract) + ')');
  return function (text) { var value = extract(text); return value === undefined ? 'null' : JSON.stringify(value); };
})((${func.source}
))`;
  const compiled = context.evalCode(wrapper, `${func.id}.js`);
  if (compiled.error) return { failure: describeError(context, compiled.error, 'compile') };
  // The time limit is the function's own: making its context and compiling it are not counted.
  deadline.at = Date.now() + limits.timeMs;
  const returned = context.callFunction(compiled.value, context.undefined, text);
  compiled.value.dispose();
  if (returned.error) return { failure: describeError(context, returned.error, 'thrown') };
  const json = context.getString(returned.value);
  returned.value.dispose();
  if (json.length > limits.outputCharacters) {
    return { failure: { kind: 'output', message: `returned ${json.length.toLocaleString('en-US')} characters of JSON, more than the ${limits.outputCharacters.toLocaleString('en-US')} allowed` } };
  }
  return { value: JSON.parse(json) as unknown };
}

/** QuickJS's error as a failure: its bounds by their messages, anything else as `otherwise`. */
function describeError(context: QuickJSContext, handle: QuickJSHandle, otherwise: 'thrown' | 'compile'): SandboxFailure {
  let error: unknown;
  try {
    error = context.dump(handle);
  } catch {
    error = 'an error that could not be read';
  } finally {
    handle.dispose();
  }
  const name = typeof error === 'object' && error !== null ? String((error as { name?: unknown }).name ?? 'Error') : 'Error';
  const message = typeof error === 'object' && error !== null ? String((error as { message?: unknown }).message ?? '') : String(error);
  if (name === 'InternalError' && message === 'interrupted') return { kind: 'time-limit', message: `stopped after ${limits.timeMs} ms (the time limit per call)` };
  if (name === 'InternalError' && message === 'out of memory') return { kind: 'memory-limit', message: `stopped at ${limits.memoryBytes / 1024 / 1024} MiB (the memory limit)` };
  if (name === 'InternalError' && message === 'stack overflow') return { kind: 'memory-limit', message: `stopped at ${limits.stackBytes / 1024} KiB of stack (the stack limit; endless recursion?)` };
  const line = `${name}: ${message}`.split('\n')[0]!;
  return { kind: name === 'SyntaxError' ? 'compile' : otherwise, message: line.length > 200 ? `${line.slice(0, 199)}…` : line };
}
