import { redactSecrets, SragError, type SragErrorCode } from '../../../core/index.ts';
import { secretSettings } from '../read-settings.ts';

/** The SQL functions' one table from error code to what the message starts with. */
const labelForCode: Record<SragErrorCode, string> = {
  LLM_NOT_CONFIGURED: 'no LLM endpoint',
  LLM_REQUEST_FAILED: 'model request failed',
  MODEL_OUTPUT_INVALID: 'unusable model reply',
  SCHEMA_INVALID: 'invalid schema',
  SQL_REJECTED: 'generated SQL rejected',
  SQL_FAILED: 'SQL failed',
  DOCUMENT_UNREADABLE: 'unreadable document',
  NO_DOCUMENTS: 'no documents',
  INPUT_INVALID: 'invalid argument',
  TABLE_NOT_FOUND: 'unknown table',
  ATTRIBUTES_MISSING: 'attributes missing',
  QUOTA_EXCEEDED: 'quota exceeded',
  TIME_LIMIT: 'time limit',
  STORE_FAILED: 'store failed',
  CANCELLED: 'cancelled',
  DEFERRED_TO_BATCH: 'waiting for a Batch API reply',
};

/**
 * The text a DuckDB error (or a bind error) carries for an srag failure: one line, the code's
 * label, the message and the fix; never a key. `function` names the SQL function that failed.
 */
export function renderSqlError(functionName: string, error: unknown): string {
  if (SragError.isInstance(error)) {
    const message = error.message.replace(new RegExp(`^${functionName}: `), '');
    const label = labelForCode[error.code] ?? error.code;
    // A message that already starts with the label says it once ("no LLM endpoint is configured").
    const text = startsWithWords(message, label) ? message : `${label}: ${message}`;
    return redactSecrets(`${functionName}: ${text}${error.hint ? ` — ${error.hint}` : ''}`, secretSettings());
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return redactSecrets(`${functionName}: unexpected error: ${message}`, secretSettings());
}

/**
 * The code of the srag failure a DuckDB error message carries, if it carries one (DuckDB passes a
 * function's error on as text): lets the CLI keep its exit statuses for errors raised inside SQL.
 */
export function sragErrorCodeInMessage(message: string): SragErrorCode | undefined {
  for (const [code, label] of Object.entries(labelForCode) as Array<[SragErrorCode, string]>) {
    if (new RegExp(`\\b(?:srag_[a-z_]+|read_text): ${label}\\b`, 'i').test(message)) return code;
  }
  return undefined;
}

function startsWithWords(text: string, words: string): boolean {
  return text.toLowerCase().startsWith(words.toLowerCase()) && !/\w/.test(text.charAt(words.length));
}
