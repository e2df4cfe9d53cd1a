const marker = Symbol.for('srag.transport-failure');

/**
 * Why a request got no HTTP response:
 * - `unreachable`: nothing answers at that address (refused connection, unknown host): every
 *   further request would fail the same way, so nothing is retried and a batch stops at once;
 * - `timeout`: no complete answer in time (a hung server); worth another try;
 * - `interrupted`: the connection broke midway; worth another try;
 * - `throttled`: the runtime refused to send for now (Apps Script's "too many times in a short
 *   time"); worth another try after a wait;
 * - `cancelled`: the caller's signal fired;
 * - `too-large`: the reply's body was longer than the transport reads (see `HttpTransport`); the
 *   same request would most likely get the same reply, so it is not retried.
 */
export type TransportFailureKind = 'unreachable' | 'timeout' | 'interrupted' | 'throttled' | 'cancelled' | 'too-large';

/** What a transport rejects with when a request got no response. */
export class TransportFailure extends Error {
  private readonly [marker] = true;
  readonly kind: TransportFailureKind;

  constructor(kind: TransportFailureKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TransportFailure';
    this.kind = kind;
  }

  /** Checks a `Symbol.for` marker, so that it holds across two copies of this class in a bundle. */
  static isInstance(error: unknown): error is TransportFailure {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
