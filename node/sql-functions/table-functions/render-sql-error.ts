import { redactSecrets, SragError, type ErrorFix, type SragErrorCode } from '../../../core/index.ts';
import { sqlString } from '../../runtime/sql-string.ts';
import { reportFunctionFailure } from './function-failures.ts';
import { secretSettings } from '../../runtime/read-settings.ts';

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
    const fix = error.fix ? renderFixForSql(error.fix) : error.hint;
    const rendered = redactSecrets(`${functionName}: ${text}${fix ? ` — ${fix}` : ''}`, secretSettings());
    reportFunctionFailure(rendered, error);
    return rendered;
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return redactSecrets(`${functionName}: unexpected error: ${message}`, secretSettings());
}

function startsWithWords(text: string, words: string): boolean {
  return text.toLowerCase().startsWith(words.toLowerCase()) && !/\w/.test(text.charAt(words.length));
}

/** An error's fix in SQL's words: the call to write. */
function renderFixForSql(fix: ErrorFix): string {
  switch (fix.kind) {
    case 'name-table':
      return `name the table: SELECT * FROM srag_ask('…', ${sqlString(fix.choices[0]!)}), one of: ${fix.choices.slice(0, 10).join(', ')}${fix.choices.length > 10 ? ', …' : ''}`;
    case 'extend-schema':
      return `add them (extracting only them from every document) with: SELECT * FROM srag_ask(${[fix.question, ...(fix.table ? [fix.table] : [])].map(sqlString).join(', ')}, extend := true)`;
    case 'answer-from-sql':
      return 'srag_ask answers from SQL alone';
    case 'price-model':
      return `set SRAG_PRICES to a JSON file of prices holding {${JSON.stringify(fix.model)}: {"input": …, "cached_input": …, "output": …}} in USD per million tokens`;
  }
}
