import { redactSecrets, renderSchemaProblem, SchemaInvalidError, SragError, type SragErrorCode } from '../../core/index.ts';
import { secretSettings } from '../runtime/read-settings.ts';
import { renderFixForCli } from './render-fix.ts';

/** The CLI's one table from error code to exit status. */
const exitStatusForCode: Record<SragErrorCode, number> = {
  LLM_NOT_CONFIGURED: 3,
  LLM_REQUEST_FAILED: 4,
  MODEL_OUTPUT_INVALID: 4,
  SCHEMA_INVALID: 2,
  SQL_REJECTED: 5,
  SQL_FAILED: 5,
  DOCUMENT_UNREADABLE: 2,
  NO_DOCUMENTS: 2,
  INPUT_INVALID: 2,
  TABLE_NOT_FOUND: 2,
  ATTRIBUTES_MISSING: 7,
  QUOTA_EXCEEDED: 4,
  TIME_LIMIT: 4,
  STORE_FAILED: 6,
  CANCELLED: 130,
  // Never reaches an edge: a run turns it into a `deferred` outcome.
  DEFERRED_TO_BATCH: 4,
};

/**
 * One line for the terminal: what failed, then how to fix it (a fix carried as data in the
 * command line's words, `--db` added for `database` when it is not the default); never a stack
 * trace, never a key. A schema with several problems gets one line each, under a line naming the file.
 */
export function renderError(error: unknown, { database = 'srag.duckdb' }: { database?: string } = {}): { line: string; exitStatus: number } {
  if (SchemaInvalidError.isInstance(error) && error.problems.length > 1) {
    const source = error.source ?? 'schema';
    const lines = [`srag: ${source} has ${error.problems.length} problems:`, ...error.problems.map((problem) => `  ${renderSchemaProblem(problem, source)}`)];
    return { line: redactSecrets(lines.join('\n'), secretSettings()), exitStatus: exitStatusForCode.SCHEMA_INVALID };
  }
  if (SragError.isInstance(error)) {
    const fix = error.fix ? renderFixForCli(error.fix, database) : error.hint;
    const hint = fix ? ` — ${fix}` : '';
    return { line: redactSecrets(`srag: ${error.message}${hint}`, secretSettings()), exitStatus: exitStatusForCode[error.code] ?? 1 };
  }
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return { line: redactSecrets(`srag: unexpected error: ${message}`, secretSettings()), exitStatus: 1 };
}
