import type { AskEngine } from '../../../app/index.ts';
import { checkGeneratedSql, SragError, type ColumnCoverage, type SqlResult } from '../../../core/index.ts';
import { settleNow } from '../runtime/settle-now.ts';

/**
 * The pinned query's answer over the current rows and the coverage behind it, counted at once
 * (the spreadsheet engine never waits); undefined when the query no longer passes the check or
 * fails to run (a column it names is gone): then the model writes a new one.
 */
export function pinnedAnswer(engine: AskEngine, sql: string, table: string, attributes: string[]): { result: SqlResult; coverage: ColumnCoverage[] } | undefined {
  let result: SqlResult;
  try {
    result = settleNow((async () => {
      await checkGeneratedSql(engine, sql, [table]);
      return engine.runReadOnlyQuery(sql, [table]);
    })(), 'running the pinned SRAG_ASK query');
  } catch (error) {
    if (SragError.isInstance(error) && (error.code === 'SQL_REJECTED' || error.code === 'SQL_FAILED')) return undefined;
    throw error;
  }
  return { result, coverage: settleNow(engine.countCoverage(sql, table, attributes), 'counting the coverage of the pinned SRAG_ASK query') };
}
