import { setMaxListeners } from 'node:events';

/**
 * An AbortController whose one signal every model request in flight listens on: a run's
 * SRAG_CONCURRENCY requests (hundreds at once are expected) add a listener each, and above 10 Node
 * printed a "possible EventTarget memory leak" warning. For the CLI, `srag serve` and the SQL
 * functions' bridge, which each cancel all their requests through one signal.
 */
export function sharedAbortController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
