import { SragError } from '../../core/index.ts';
import { openSqlSession } from '../sql-functions/harness/sql-session.ts';
import { splitSqlScript } from '../sql-functions/harness/split-sql-script.ts';
import { ShellInput, type ShellEntry } from './shell-input.ts';
import { EntryRunner } from './sql-entry-runner.ts';
import { shell } from './sql-shell.ts';

export interface SqlCommandOptions {
  db: string;
  /** SQL given as the argument (`srag sql "SELECT 1"`); the same as `command`. */
  sql?: string;
  command?: string;
  json?: boolean;
}

/**
 * `srag sql`: the user's own SQL on the store (trusted, unlike generated SQL), with the srag
 * functions registered. It follows the DuckDB CLI's conventions: `-c` runs SQL or one dot command,
 * statements piped on stdin run like a script, and a terminal gets a shell. Every statement that
 * returns rows prints them, in order; DDL, INSERT and COPY print nothing. In `-c` and script mode
 * the first failure stops with its error; the shell prints it and goes on.
 */
export async function sqlCommand(options: SqlCommandOptions, abortSignal?: AbortSignal): Promise<number> {
  if (options.sql !== undefined && options.command !== undefined) {
    throw new SragError({ code: 'INPUT_INVALID', message: 'srag sql: SQL given twice, as an argument and with -c', hint: 'pass it one way: srag sql "SELECT 1" or srag sql -c "SELECT 1"' });
  }
  const command = options.sql ?? options.command;
  const session = await openSqlSession(options.db);
  const onAbort = () => session.cancel();
  abortSignal?.addEventListener('abort', onAbort);
  const runner = new EntryRunner(session, options, abortSignal);
  try {
    if (command !== undefined) {
      const text = command.trim();
      const entries: ShellEntry[] = text.startsWith('.') ? [ShellInput.dotCommand(text)] : [{ type: 'sql', statements: splitSqlScript(text).map((statement) => statement.sql), text }];
      await runner.runAll(entries);
      return 0;
    }
    if (!process.stdin.isTTY) {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      const input = new ShellInput();
      const entries = Buffer.concat(chunks).toString('utf8').split('\n').flatMap((line) => input.push(line));
      await runner.runAll([...entries, ...input.end()]);
      return 0;
    }
    return await shell(session, options, runner);
  } finally {
    abortSignal?.removeEventListener('abort', onAbort);
    await session.close();
  }
}
