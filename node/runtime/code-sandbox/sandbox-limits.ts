import type { ResourceLimits } from 'node:worker_threads';

/** The bounds of one call of generated code in the QuickJS sandbox. */
export interface SandboxLimits {
  /** Wall-clock time one call may take; QuickJS interrupts it, and a worker that does not answer is ended. */
  timeMs: number;
  /**
   * The heap of one call's QuickJS runtime (its allocations; the document text is counted too).
   * The WebAssembly memory holding it is bounded too (`sandboxMemoryBytes`): QuickJS's own count
   * misses some allocations.
   */
  memoryBytes: number;
  /** The QuickJS stack, kept well under the worker's own so that deep recursion is the function's error, not the host's. */
  stackBytes: number;
  /** Characters of the JSON a call may return. */
  outputCharacters: number;
}

/** An extractor runs in well under a millisecond on a page; these bounds only stop code that went wrong. */
export const defaultSandboxLimits: SandboxLimits = {
  timeMs: 1_000,
  memoryBytes: 32 * 1024 * 1024,
  stackBytes: 256 * 1024,
  outputCharacters: 100_000,
};

export const webAssemblyPageBytes = 64 * 1024;
/** The memory QuickJS's WebAssembly build starts with (its INITIAL_MEMORY: code data, the C stack). */
export const webAssemblyStartBytes = 16 * 1024 * 1024;

/**
 * The most WebAssembly memory the sandbox's QuickJS may have: what it starts with, the heap of a
 * call, and as much again for what is copied beside the heap (the text going in as UTF-8, the JSON
 * coming out). 80 MiB with the default 32 MiB heap.
 */
export function sandboxMemoryBytes(limits: SandboxLimits): number {
  const bytes = webAssemblyStartBytes + 2 * limits.memoryBytes;
  return Math.ceil(bytes / webAssemblyPageBytes) * webAssemblyPageBytes;
}

/**
 * The V8 heap of the sandbox's worker thread: room for the document text and a call's result a few
 * times over (the WebAssembly memory is outside it, bounded above). A worker that runs out is ended
 * by Node alone, and its functions fail as `unavailable`: the model reads those attributes.
 */
export function sandboxWorkerResourceLimits(limits: SandboxLimits): ResourceLimits {
  const mebibytes = Math.max(64, Math.ceil((4 * limits.memoryBytes) / (1024 * 1024)));
  return { maxOldGenerationSizeMb: mebibytes, maxYoungGenerationSizeMb: 16 };
}
