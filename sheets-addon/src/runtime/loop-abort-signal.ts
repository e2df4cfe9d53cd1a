import type { CancellationSignal } from '../../../core/index.ts';

/** Why a request loop stopped: its execution's deadline passed, or the user pressed Stop. */
export type StopReason = 'deadline' | 'stop';

type Listener = () => void;

/**
 * Core's cancellation signal for a runtime without AbortController or EventTarget: Apps Script's
 * V8 has neither.
 */
export class LoopAbortSignal implements CancellationSignal {
  aborted = false;
  reason: StopReason | undefined;
  private listeners: Array<{ listener: Listener; once: boolean }> = [];

  addEventListener(type: string, listener: Listener, options?: { once?: boolean }): void {
    if (type === 'abort') this.listeners.push({ listener, once: options?.once ?? false });
  }

  removeEventListener(type: string, listener: Listener): void {
    if (type === 'abort') this.listeners = this.listeners.filter((entry) => entry.listener !== listener);
  }

  throwIfAborted(): void {
    if (this.aborted) throw new Error(`aborted (${this.reason})`);
  }

  abort(reason: StopReason): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = listeners.filter((entry) => !entry.once);
    for (const entry of listeners) entry.listener();
  }
}
