/**
 * The few integers the thread that runs DuckDB's callbacks shares with the bridge worker (and
 * with a CLI's UI thread): the callback blocks on `reply`; `cancel` is a generation counter that
 * anyone holding the buffer may bump (Ctrl-C) and both sides watch without an event loop.
 */
export const controlSlots = {
  /** 0 while a synchronous call waits; the bridge stores 1 and notifies when its reply is posted. */
  reply: 0,
  /** Incremented by every cancel; a change during a call cancels that call. */
  cancel: 1,
  /** Set to 1 by the worker when it could not start or died; a waiting call then gives up. */
  failed: 2,
} as const;

export function createControlBuffer(): SharedArrayBuffer {
  return new SharedArrayBuffer(4 * Int32Array.BYTES_PER_ELEMENT);
}

/** Cancel what the bridge is doing and wake whoever waits for it; safe from any thread. */
export function cancelThroughControlBuffer(buffer: SharedArrayBuffer): void {
  const control = new Int32Array(buffer);
  Atomics.add(control, controlSlots.cancel, 1);
  Atomics.notify(control, controlSlots.cancel);
  Atomics.notify(control, controlSlots.reply);
}
