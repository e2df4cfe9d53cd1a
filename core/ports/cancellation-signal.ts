/**
 * What core asks of a cancellation (Ctrl-C, a stopped batch, a deadline): whether it happened, and
 * to be told when it does. Node's `AbortSignal` satisfies it as it is; Apps Script has no
 * AbortController, so the Sheets request loop hands core a signal of its own with these members.
 */
export interface CancellationSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
