import { firstLine, SragError, type SqlResult, type SragErrorCode } from '../../core/index.ts';
import type { SqlSession } from '../sql-functions/harness/sql-session.ts';

/**
 * One statement through the session; a failure becomes a one-line `SragError` (SQL_FAILED, or
 * CANCELLED after Ctrl-C) for the CLI's error table.
 */
export async function runStatement(session: SqlSession, sql: string, abortSignal?: AbortSignal): Promise<SqlResult & { returnsRows: boolean }> {
  try {
    return await session.run(sql);
  } catch (error) {
    if (abortSignal?.aborted) {
      throw new SragError({ code: 'CANCELLED', message: 'cancelled; what was extracted before is cached, so running the statement again resumes', cause: error });
    }
    const message = firstLine((error as Error).message);
    const code = (error as { code?: string }).code as SragErrorCode | undefined;
    // DuckDB puts its error class before a function's own message ("Invalid Input Error: srag_extract: …"):
    // an srag failure is shown as the function said it.
    const shown = code ? message.replace(/^[A-Za-z ]+ Error: (?=(?:srag_[a-z_]+|read_text): )/, '') : message;
    throw new SragError({ code: code ?? 'SQL_FAILED', message: shown, cause: error });
  }
}
