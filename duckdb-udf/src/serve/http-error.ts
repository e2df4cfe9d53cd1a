import { redactSecrets, SchemaInvalidError, renderSchemaProblem, SragError, type SragErrorCode } from '../../../core/index.ts';
import { secretSettings } from '../read-settings.ts';

/** Codes only the HTTP edge has (everything else is a `SragErrorCode`). */
export type HttpOnlyCode = 'UNAUTHORIZED' | 'NOT_FOUND' | 'PAYLOAD_TOO_LARGE' | 'INTERNAL';

/** The server's one table from error code to HTTP status. */
const statusForCode: Record<SragErrorCode | HttpOnlyCode, number> = {
  LLM_NOT_CONFIGURED: 503,
  LLM_REQUEST_FAILED: 502,
  MODEL_OUTPUT_INVALID: 502,
  SCHEMA_INVALID: 400,
  SQL_REJECTED: 422,
  SQL_FAILED: 422,
  DOCUMENT_UNREADABLE: 422,
  NO_DOCUMENTS: 400,
  INPUT_INVALID: 400,
  TABLE_NOT_FOUND: 404,
  // The question is understood, the table cannot answer it yet: the body names the attributes and how to add them.
  ATTRIBUTES_MISSING: 422,
  QUOTA_EXCEEDED: 429,
  TIME_LIMIT: 504,
  STORE_FAILED: 500,
  CANCELLED: 503,
  // Never reaches an edge: a run turns it into a `deferred` outcome.
  DEFERRED_TO_BATCH: 500,
  UNAUTHORIZED: 401,
  NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  INTERNAL: 500,
};

export interface HttpErrorBody {
  error: { code: SragErrorCode | HttpOnlyCode; message: string; hint?: string };
}

/**
 * Any error as `{error: {code, message, hint}}` with its HTTP status: a `SragError` keeps its code
 * (the CLI's), anything else is INTERNAL with its first line. Never a stack trace, never a key.
 */
export function httpError(error: unknown): { status: number; body: HttpErrorBody } {
  const redact = (text: string) => redactSecrets(text, [...secretSettings(), process.env.SRAG_SERVE_TOKEN]);
  if (SchemaInvalidError.isInstance(error) && error.problems.length > 1) {
    const source = error.source ?? 'schema';
    const message = `${source} has ${error.problems.length} problems: ${error.problems.map((problem) => renderSchemaProblem(problem, source)).join('; ')}`;
    return { status: statusForCode.SCHEMA_INVALID, body: { error: { code: 'SCHEMA_INVALID', message: redact(message) } } };
  }
  if (SragError.isInstance(error)) {
    return { status: statusForCode[error.code] ?? 500, body: { error: { code: error.code, message: redact(error.message), ...(error.hint ? { hint: redact(error.hint) } : {}) } } };
  }
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  return { status: 500, body: { error: { code: 'INTERNAL', message: redact(`unexpected error: ${message}`) } } };
}

/** An error of the HTTP edge itself (no route, no token, too large), in the same shape. */
export function edgeError(code: HttpOnlyCode | 'INPUT_INVALID', message: string, hint?: string): { status: number; body: HttpErrorBody } {
  return { status: statusForCode[code], body: { error: { code, message, ...(hint ? { hint } : {}) } } };
}
