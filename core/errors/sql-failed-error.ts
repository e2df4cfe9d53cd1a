import { SragError } from './srag-error.ts';

/** A generated query that still failed after the repair round (S-RAG paper §3.3). */
export class SqlFailedError extends SragError {
  readonly sql: string;
  readonly question: string;

  constructor({ sql, question, engineMessage, cause }: { sql: string; question: string; engineMessage: string; cause?: unknown }) {
    super({
      code: 'SQL_FAILED',
      message: `the SQL for "${question}" failed after one repair: ${engineMessage}`,
      hint: 'rephrase the question with the column names shown by `srag stats`, or run your own SQL with `srag sql -c`',
      cause,
    });
    this.name = 'SqlFailedError';
    this.sql = sql;
    this.question = question;
  }

  /** Narrower than `SragError.isInstance`: only errors of this class's code. */
  static override isInstance(error: unknown): error is SqlFailedError {
    return SragError.isInstance(error) && error.code === 'SQL_FAILED' && 'question' in error;
  }
}
