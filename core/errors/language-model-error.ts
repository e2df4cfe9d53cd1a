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
  /**
   * True when the failure is about what one request carried — a document too long for the
   * context, content a filter or the model refused, a reply cut at its length — not about a
   * setting: other documents may well succeed, so it never stops a run.
   */
  readonly aboutDocument: boolean;
  /**
   * True when the endpoint refused requests the same way before it answered any (see
   * `ModelClient`): a setting it refuses (a parameter, a deployment, a model option). Every further
   * request would fail alike, so a run stops at once and marks no document.
   */
  readonly setting: boolean;
  /**
   * The request parameter a 400 names as refused (`temperature`, `max_tokens`), and the one to send
   * instead when the endpoint says (`max_completion_tokens`): the wire drops or renames it and
   * asks again once.
   */
  readonly refusedParameter: { name: string; replacement?: string } | undefined;

  constructor({ message, status, retryable, retryAfterSeconds, unreachable = false, hint, reason, cause, aboutDocument = false, setting = false, refusedParameter }: {
    message: string; status?: number; retryable: boolean; retryAfterSeconds?: number; unreachable?: boolean; hint?: string; reason?: string; cause?: unknown;
    aboutDocument?: boolean; setting?: boolean; refusedParameter?: { name: string; replacement?: string };
  }) {
    super({ code: 'LLM_REQUEST_FAILED', message, hint, cause });
    this.name = 'LanguageModelError';
    this.status = status;
    this.retryable = retryable;
    this.retryAfterSeconds = retryAfterSeconds;
    this.unreachable = unreachable;
    this.reason = reason ?? (status !== undefined ? String(status) : 'request failed');
    this.aboutDocument = aboutDocument;
    this.setting = setting;
    this.refusedParameter = refusedParameter;
  }

  /** Narrower than `SragError.isInstance`: only errors of this class's code. */
  static override isInstance(error: unknown): error is LanguageModelError {
    return SragError.isInstance(error) && error.code === 'LLM_REQUEST_FAILED';
  }
}
