import { redactSecrets, SchemaInvalidError, renderSchemaProblem, SragError, type ErrorFix, type SragErrorCode } from '../../core/index.ts';
import { secretSettings } from '../runtime/read-settings.ts';

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
  /** `fix`, when there is one, is the error's fix as data (e.g. `{kind: 'name-table', choices}`), which `hint` words for HTTP. */
  error: { code: SragErrorCode | HttpOnlyCode; message: string; hint?: string; fix?: ErrorFix };
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
    const hint = error.fix ? renderFixForHttp(error.fix) : error.hint;
    return {
      status: statusForCode[error.code] ?? 500,
      body: { error: { code: error.code, message: redact(error.message), ...(hint ? { hint: redact(hint) } : {}), ...(error.fix ? { fix: error.fix } : {}) } },
    };
  }
  const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
  return { status: 500, body: { error: { code: 'INTERNAL', message: redact(`unexpected error: ${message}`) } } };
}

/** An error of the HTTP edge itself (no route, no token, too large), in the same shape. */
export function edgeError(code: HttpOnlyCode | 'INPUT_INVALID', message: string, hint?: string): { status: number; body: HttpErrorBody } {
  return { status: statusForCode[code], body: { error: { code, message, ...(hint ? { hint } : {}) } } };
}

/** An error's fix in HTTP's words: the request field (or query parameter) to send. */
function renderFixForHttp(fix: ErrorFix): string {
  switch (fix.kind) {
    case 'name-table':
      return `name the table with "table" (a field of the JSON body, or ?table= in the URL), one of: ${fix.choices.slice(0, 10).join(', ')}${fix.choices.length > 10 ? ', …' : ''}`;
    case 'extend-schema':
      return `add them (extracting only them from every document) by sending the question again with "extend_schema": true${fix.table ? ` and "table": "${fix.table}"` : ''}`;
    case 'answer-from-sql':
      return 'leave out "hybrid"';
    case 'price-model':
      return `start srag serve with SRAG_PRICES naming a JSON file of prices that holds {${JSON.stringify(fix.model)}: {"input": …, "cached_input": …, "output": …}} in USD per million tokens, or leave out "maxCost"`;
  }
}
