// The code sandbox's worker thread: QuickJS compiled to WebAssembly runs the generated functions.
// Each function gets a QuickJS runtime of its own (its own heap limit, stack limit and globals), in
// which nothing of Node exists: no process, require, import of modules, file system or network.
// QuickJS's interrupt handler stops a call at its deadline; a call that does not come back anyway
// (QuickJS polls the handler only every few thousand operations) is ended by the main thread,
// which terminates this worker — see QuickJsCodeSandbox.
import { DefaultIntrinsics, newQuickJSWASMModuleFromVariant, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import { parentPort, workerData } from 'node:worker_threads';
import type { SandboxCallResult, SandboxFailure, SandboxFunction } from '../../../core/index.ts';
import type { SandboxRequest, SandboxResponse, SandboxWorkerData } from './sandbox-protocol.ts';

const { limits, progress: progressBuffer } = workerData as SandboxWorkerData;
const progress = new Int32Array(progressBuffer);

interface Compiled {
  source: string;
  runtime: QuickJSRuntime;
  context: QuickJSContext;
  /** `text => JSON text of what the function returned`. */
  callable: QuickJSHandle;
  deadline: { at: number };
}

let quickJs: Promise<QuickJSWASMModule> | undefined;
const compiled = new Map<string, Compiled>();

parentPort!.on('message', (request: SandboxRequest) => {
  void run(request).then((results) => parentPort!.postMessage({ id: request.id, results } satisfies SandboxResponse));
});

async function run(request: SandboxRequest): Promise<SandboxCallResult[]> {
  let module: QuickJSWASMModule;
  try {
    quickJs ??= newQuickJSWASMModuleFromVariant(import('@jitl/quickjs-wasmfile-release-sync'));
    module = await quickJs;
  } catch (error) {
    quickJs = undefined;
    const failure: SandboxFailure = { kind: 'unavailable', message: `QuickJS could not be loaded: ${String((error as Error)?.message ?? error).split('\n')[0]}` };
    return request.functions.map(() => ({ failure }));
  }
  const results: SandboxCallResult[] = [];
  for (const [position, func] of request.functions.entries()) {
    Atomics.store(progress, 0, position);
    results.push(call(module, func, request.text));
  }
  Atomics.store(progress, 0, -1);
  return results;
}

function call(module: QuickJSWASMModule, func: SandboxFunction, text: string): SandboxCallResult {
  let entry = compiled.get(func.id);
  if (entry && entry.source !== func.source) {
    discard(func.id);
    entry = undefined;
  }
  try {
    if (!entry) {
      const made = compile(module, func);
      if ('failure' in made) return made;
      entry = made.entry;
      compiled.set(func.id, entry);
    }
    const { context } = entry;
    const argument = context.newString(text);
    entry.deadline.at = Date.now() + limits.timeMs;
    const result = context.callFunction(entry.callable, context.undefined, argument);
    argument.dispose();
    if (result.error) {
      const failure = describeError(context, result.error, 'thrown');
      // A function stopped at a bound may have left its runtime full; the next call starts afresh.
      if (failure.kind !== 'thrown') discard(func.id);
      return { failure };
    }
    const json = context.getString(result.value);
    result.value.dispose();
    if (json.length > limits.outputCharacters) {
      return { failure: { kind: 'output', message: `returned ${json.length.toLocaleString('en-US')} characters of JSON, more than the ${limits.outputCharacters.toLocaleString('en-US')} allowed` } };
    }
    return { value: JSON.parse(json) as unknown };
  } catch (error) {
    // The host itself failed inside the WebAssembly (a stack it could not grow): nothing of this
    // module's state is trusted any more; the next call loads QuickJS anew.
    for (const id of [...compiled.keys()]) discard(id);
    quickJs = undefined;
    return { failure: { kind: 'unavailable', message: `the sandbox broke while running it (${String((error as Error)?.message ?? error).split('\n')[0]}); it was restarted` } };
  }
}

/**
 * Compiles the source in a runtime of its own, wrapped so that each call returns JSON text: a
 * value that is not plain data (a function, a cycle) fails inside the sandbox, within its limits.
 */
function compile(module: QuickJSWASMModule, func: SandboxFunction): { entry: Compiled } | { failure: SandboxFailure } {
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  const deadline = { at: Date.now() + limits.timeMs };
  runtime.setInterruptHandler(() => Date.now() > deadline.at);
  // Typed arrays allocate outside QuickJS's heap limit (a loop of them grows the WebAssembly memory
  // to its maximum); an extractor reads text and has no use for them.
  const context = runtime.newContext({ intrinsics: { ...DefaultIntrinsics, TypedArrays: false } });
  const wrapper = `(function (extract) {
  if (typeof extract !== 'function') throw new TypeError('the source is not a function expression (it is ' + (extract === null ? 'null' : typeof extract) + ')');
  return function (text) { var value = extract(text); return value === undefined ? 'null' : JSON.stringify(value); };
})((${func.source}
))`;
  const result = context.evalCode(wrapper, `${func.id}.js`);
  if (result.error) {
    const failure = describeError(context, result.error, 'compile');
    context.dispose();
    runtime.dispose();
    return { failure };
  }
  return { entry: { source: func.source, runtime, context, callable: result.value, deadline } };
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

function discard(id: string): void {
  const entry = compiled.get(id);
  compiled.delete(id);
  if (!entry) return;
  try {
    entry.callable.dispose();
    entry.context.dispose();
    entry.runtime.dispose();
  } catch {
    // A runtime left inconsistent by a stopped call is dropped with its memory; the module stays usable.
  }
}
