import { countNoun, SragError, type SqlResult } from '../../core/index.ts';
import { openSqlSession } from '../sql-functions/harness/sql-session.ts';
import { splitSqlScript } from '../sql-functions/harness/split-sql-script.ts';
import { readTextFile } from '../runtime/read-text-file.ts';
import { formatTable } from './format-table.ts';
import { runStatement } from './run-statement.ts';

export interface RunCommandOptions {
  db: string;
  json?: boolean;
}

/**
 * `srag run FILE.sql`: a SQL job, statement by statement, the way a dbt-style batch runs. Each
 * statement's result is printed under a line naming it; the first failure stops the job with one
 * line naming the statement and the line it starts on. Model usage goes to stderr at the end.
 */
export async function runCommand(file: string, options: RunCommandOptions, abortSignal?: AbortSignal): Promise<number> {
  const script = await readTextFile(file, { what: 'the SQL file', hint: 'check the path from the current directory' });
  const statements = splitSqlScript(script);
  if (statements.length === 0) throw new SragError({ code: 'INPUT_INVALID', message: `${file} holds no SQL statement` });
  const session = await openSqlSession(options.db);
  const onAbort = () => session.cancel();
  abortSignal?.addEventListener('abort', onAbort);
  try {
    for (const [index, statement] of statements.entries()) {
      const label = `statement ${index + 1} of ${statements.length} (${file}:${statement.line})`;
      let result: SqlResult;
      try {
        result = await runStatement(session, statement.sql, abortSignal);
      } catch (error) {
        if (SragError.isInstance(error)) {
          throw new SragError({ code: error.code, message: `${label} failed: ${error.message}`, hint: error.hint, cause: error });
        }
        throw error;
      }
      if (options.json) {
        process.stdout.write(`${JSON.stringify({ statement: index + 1, line: statement.line, ...result })}\n`);
      } else {
        process.stdout.write(`-- ${label}: ${summarize(statement.sql)}\n${render(result)}\n\n`);
      }
    }
    const usage = await session.usage();
    if (usage.length > 0) {
      process.stderr.write(`${usage.map((entry) => `${entry.model}: ${countNoun(entry.calls, 'model call')}, ${countNoun(entry.cacheHits, 'cache hit')}, ${countNoun(entry.retries, 'retry', 'retries')}, ${entry.promptTokens} prompt + ${entry.completionTokens} completion tokens`).join('\n')}\n`);
    }
    return 0;
  } finally {
    abortSignal?.removeEventListener('abort', onAbort);
    await session.close();
  }
}

/** The statement's first code line, shortened: what the header names it by. */
function summarize(sql: string): string {
  const code = sql.split('\n').map((line) => line.trim()).find((line) => line && !line.startsWith('--')) ?? '';
  return code.length > 80 ? `${code.slice(0, 79)}…` : code;
}

/** DuckDB answers DDL and COPY with one "Count" column; that reads better as a sentence. */
function render(result: SqlResult): string {
  if (result.columns.length === 1 && result.columns[0] === 'Count' && result.rows.length <= 1) {
    return result.rows.length ? `ok: ${result.rows[0]![0]} rows` : 'ok';
  }
  return formatTable(result);
}
