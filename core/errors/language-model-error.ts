import { SragError } from './srag-error.ts';

/** A request to the model endpoint failed after its retries (HTTP status, timeout, network). */
export class LanguageModelError extends SragError {
  readonly status: number | undefined;
  readonly retryable: boolean;
  /** Seconds the endpoint asked us to wait (Retry-After), when it said. */
  readonly retryAfterSeconds: number | undefined;
  /** True when no connection could be made at all: every further request would fail the same way. */
  readonly unreachable: boolean;
  /** A word or two for a progress line, e.g. `429`, `timeout`, `connection lost`. */
  readonly reason: string;

  constructor({ message, status, retryable, retryAfterSeconds, unreachable = false, hint, reason, cause }: { message: string; status?: number; retryable: boolean; retryAfterSeconds?: number; unreachable?: boolean; hint?: string; reason?: string; cause?: unknown }) {
    super({ code: 'LLM_REQUEST_FAILED', message, hint, cause });
    this.name = 'LanguageModelError';
    this.status = status;
    this.retryable = retryable;
    this.retryAfterSeconds = retryAfterSeconds;
    this.unreachable = unreachable;
    this.reason = reason ?? (status !== undefined ? String(status) : 'request failed');
  }

  /** Narrower than `SragError.isInstance`: only errors of this class's code. */
  static override isInstance(error: unknown): error is LanguageModelError {
    return SragError.isInstance(error) && error.code === 'LLM_REQUEST_FAILED';
  }
}
