/**
 * The code-sandbox port: runs JavaScript a model wrote (a synthesized extractor) where it can
 * reach nothing of the host — no `process`, no `require`, no files, no network — and where each
 * call is bounded in time and memory. The Node packaging implements it with QuickJS compiled to
 * WebAssembly in a worker thread (node/runtime/code-sandbox/); never with the host's own realm.
 */
export interface CodeSandbox {
  /**
   * Calls each function on `text`, in order, each alone in its own bounded environment; one
   * function's failure (a throw, a loop, a memory bomb) is its own result, the others still run.
   * Every call starts from the function's source in a fresh realm: nothing one call leaves
   * behind (a global, a closure's counter) reaches another call, of this request or a later one,
   * so a function behaves on a document as it did when it was checked.
   */
  runFunctions(functions: readonly SandboxFunction[], text: string): Promise<SandboxCallResult[]>;
  /** Frees what the sandbox holds (a worker, a WebAssembly instance); later calls start it again. */
  close(): Promise<void>;
}

/** A generated function: `source` is a JavaScript function expression of one argument, the document text. */
export interface SandboxFunction {
  /** Names the function in its errors (e.g. the attribute name). */
  id: string;
  source: string;
}

/** What one call gave: its return value, copied out as JSON (undefined becomes null), or why it has none. */
export type SandboxCallResult = { value: unknown } | { failure: SandboxFailure };

export interface SandboxFailure {
  /**
   * - `compile`: the source is not a function expression (a syntax error, another value);
   * - `thrown`: the function threw;
   * - `time-limit` / `memory-limit`: the call was stopped at the sandbox's bound;
   * - `output`: the return value cannot be copied out as JSON, or is too large;
   * - `unavailable`: the sandbox itself could not run (it did not start, or it broke).
   */
  kind: 'compile' | 'thrown' | 'time-limit' | 'memory-limit' | 'output' | 'unavailable';
  /** One line that says what happened, e.g. "stopped after 1000 ms (the time limit per call)". */
  message: string;
}
