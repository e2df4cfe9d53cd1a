import type { ErrorFix } from './error-fix.ts';

const marker = Symbol.for('srag.error');

/**
 * The closed set of error codes core throws. Each edge (CLI, SQL functions, Sheets) maps a code to
 * its own presentation through one table; the codes themselves never change meaning.
 */
export type SragErrorCode =
  | 'LLM_NOT_CONFIGURED'
  | 'LLM_REQUEST_FAILED'
  | 'MODEL_OUTPUT_INVALID'
  | 'SCHEMA_INVALID'
  | 'SQL_REJECTED'
  | 'SQL_FAILED'
  | 'DOCUMENT_UNREADABLE'
  | 'NO_DOCUMENTS'
  | 'INPUT_INVALID'
  | 'TABLE_NOT_FOUND'
  | 'ATTRIBUTES_MISSING'
  /** A quota ran out: the provider's (429 insufficient_quota) or the runtime's (Apps Script's daily UrlFetch calls). */
  | 'QUOTA_EXCEEDED'
  /** The runtime's time budget ran out first (a spreadsheet custom function has 30 seconds). */
  | 'TIME_LIMIT'
  /** The store could not keep what was done (a full disk, a read-only file): the run stops, nothing is marked failed. */
  | 'STORE_FAILED'
  | 'CANCELLED'
  /** Not a failure: the request went into a Batch API submission and its document waits for the reply. */
  | 'DEFERRED_TO_BATCH';

export interface SragErrorOptions {
  code: SragErrorCode;
  message: string;
  /** What a user needs to fix it, e.g. "set OPENAI_API_KEY or OPENAI_BASE_URL". */
  hint?: string;
  /** The fix as data, which each edge words itself (see `ErrorFix`); `hint` is the fallback. */
  fix?: ErrorFix;
  cause?: unknown;
}

/**
 * Base of every error core throws. `isInstance` checks a `Symbol.for` marker rather than the
 * prototype chain so that it holds when a bundle carries two copies of this class.
 */
export class SragError extends Error {
  private readonly [marker] = true;
  readonly code: SragErrorCode;
  readonly hint: string | undefined;
  readonly fix: ErrorFix | undefined;

  constructor({ code, message, hint, fix, cause }: SragErrorOptions) {
    super(message, { cause });
    this.name = 'SragError';
    this.code = code;
    this.hint = hint;
    this.fix = fix;
  }

  static isInstance(error: unknown): error is SragError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
