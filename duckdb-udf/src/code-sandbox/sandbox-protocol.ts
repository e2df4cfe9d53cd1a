import type { SandboxCallResult, SandboxFunction } from '../../../core/index.ts';
import type { SandboxLimits } from './sandbox-limits.ts';

/** What the sandbox worker is started with. */
export interface SandboxWorkerData {
  limits: SandboxLimits;
  /**
   * One Int32: the position (in the running request) of the function being called, -1 between
   * calls. The main thread reads it when a call overruns, to name the function it stops.
   */
  progress: SharedArrayBuffer;
}

/** Main thread → worker: call each function on the text, in order. */
export interface SandboxRequest {
  id: number;
  functions: readonly SandboxFunction[];
  text: string;
}

/** Worker → main thread: one result per function of the request. */
export interface SandboxResponse {
  id: number;
  results: SandboxCallResult[];
}
