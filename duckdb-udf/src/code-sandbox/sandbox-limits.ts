/** The bounds of one call of generated code in the QuickJS sandbox. */
export interface SandboxLimits {
  /** Wall-clock time one call may take; QuickJS interrupts it, and a worker that does not answer is ended. */
  timeMs: number;
  /** The heap of one function's QuickJS runtime (its allocations; the document text is counted too). */
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
