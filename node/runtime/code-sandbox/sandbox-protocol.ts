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
  /** The worker ends after this answer (a runtime it could not free holds memory for good): the next request needs a new one. */
  retiring?: boolean;
}

/**
 * Worker → main thread, once, before any request: QuickJS is loaded (or why not). A request's time
 * budget starts after it, so that starting a worker — again after one was ended — never counts
 * against a call's time limit.
 */
export interface SandboxReady {
  ready: true;
  /** Why QuickJS could not be loaded; absent when it was. */
  problem?: string;
}
