import { redactSecrets, SragError, type SragErrorCode } from '../../../core/index.ts';
import { renderFixForSheets } from './render-fix-for-sheets.ts';

const prefix = '⚠ srag: ';

/**
 * The one table from error code to what a custom function's cell says. Cells show text rather
 * than #ERROR! so the reason is readable without hovering; formulas that use the cell still fail.
 * What to do comes from an error's fix, in the spreadsheet's words (`withFix`); the hints of
 * tables not found and attributes missing name srag's commands, which a spreadsheet has none of.
 */
const cellText: Record<SragErrorCode, (error: SragError) => string> = {
  LLM_NOT_CONFIGURED: (error) => `no model settings: ${error.hint ?? error.message}`,
  LLM_REQUEST_FAILED: (error) => `the model request failed: ${error.message}${error.hint ? ` (${error.hint})` : ''}`,
  MODEL_OUTPUT_INVALID: (error) => `the model's reply could not be used: ${error.message}`,
  SCHEMA_INVALID: (error) => `the schema is not usable: ${error.message}${error.hint ? ` (${error.hint})` : ''}`,
  SQL_REJECTED: (error) => `the query was refused: ${error.message}`,
  SQL_FAILED: (error) => `the query failed after one repair: ${error.message}`,
  DOCUMENT_UNREADABLE: (error) => error.message,
  NO_DOCUMENTS: (error) => error.message,
  INPUT_INVALID: (error) => (error.fix ? withFix(error) : `${error.message}${error.hint ? ` (${error.hint})` : ''}`),
  TABLE_NOT_FOUND: withFix,
  ATTRIBUTES_MISSING: withFix,
  QUOTA_EXCEEDED: (error) => `quota reached: ${error.message}${error.hint ? ` (${error.hint})` : ''}`,
  TIME_LIMIT: () => 'stopped to stay inside the 30-second limit of custom functions; the replies received so far are cached, so recalculating continues from there (for many rows use srag › Extract)',
  STORE_FAILED: (error) => `the result could not be saved: ${error.message}`,
  CANCELLED: () => 'cancelled',
  // The add-on has no Batch API (see settingsHints.noBatchApi); kept for the closed set.
  DEFERRED_TO_BATCH: (error) => error.message,
};

function withFix(error: SragError): string {
  return error.fix ? `${error.message} — ${renderFixForSheets(error.fix)}` : error.message;
}

export function cellMessage(error: unknown, secrets: Array<string | undefined>): string {
  const text = SragError.isInstance(error)
    ? (cellText[error.code] ?? ((other: SragError) => other.message))(error)
    : `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  return redactSecrets(`${prefix}${text}`, secrets).slice(0, 1_000);
}
