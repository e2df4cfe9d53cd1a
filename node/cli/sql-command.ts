import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { firstLine, SragError, type SqlResult, type SragErrorCode } from '../../core/index.ts';
import { openSqlSession, type SqlSession } from '../sql-functions/harness/sql-session.ts';
import { splitSqlScript } from '../sql-functions/harness/split-sql-script.ts';
import { formatTable } from './format-table.ts';
import { ShellInput, type ShellEntry } from './shell-input.ts';
import { sqlString } from '../runtime/sql-string.ts';

export interface SqlCommandOptions {
  db: string;
  /** SQL given as the argument (`srag sql "SELECT 1"`); the same as `command`. */
  sql?: string;
  command?: string;
  json?: boolean;
}

const historyFile = join(homedir(), '.srag_history');
const historySize = 1000;

const shellHelp = `Dot commands (at the start of a line):
  .tables [PATTERN]   list tables and views (PATTERN as in LIKE, e.g. srag_%)
  .schema [TABLE]     the CREATE statements of all tables and views, or of one
  .help               this text
  .quit, .exit        leave (as does Ctrl-D)
srag functions (docs/sql-functions.md has the details):
  SELECT * FROM srag_extract(read_text('docs/*'), schema := 'schema.json');
      one row per file: filename, content_hash, one typed column per schema property, _error;
      also srag_extract('docs/*', …) and srag_extract(['a.txt', 'b.md'], …)
      named: model := '…', concurrency := 16, on_error := 'capture' | 'null' | 'fail',
             batch_size := 8, retry_failed := true, follow_links := true
  CREATE TABLE hotels AS SELECT * FROM srag_extract(read_text('docs/*'), schema := 'schema.json');
  SELECT filename, r.* FROM (SELECT filename, json_transform(srag_extract(content, 'schema.json', filename),
      srag_record_type('schema.json')) AS r FROM read_text('docs/*'));
      the scalar form, over any text column
  SELECT * FROM srag_ask('How many hotels are in Spain?', 'hotels');
      answer, sql, result (JSON rows), prompt_tokens, completion_tokens; also "table" := 'hotels'
  SELECT * FROM srag_usage();
      model calls, cache hits, retries and tokens of this session
srag tables: srag_tables, srag_extract_schemas, srag_ingestion_log, srag_evidence, srag_cache, srag_extractors, srag_batches
Shell: end a statement with ";"; Ctrl-C cancels the running statement; history in ~/.srag_history
`;

/** What a statement or dot command printed, and whether it failed (the shell goes on; -c and scripts stop). */
type Outcome = { ok: true } | { ok: false; error: SragError };

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

/** Runs shell entries against the session and prints their results. */
class EntryRunner {
  private printedResults = 0;

  constructor(private readonly session: SqlSession, private readonly options: SqlCommandOptions, private readonly abortSignal: AbortSignal | undefined) {}

  /** Script mode: every entry in turn; the first failure is thrown. */
  async runAll(entries: ShellEntry[]): Promise<void> {
    for (const entry of entries) {
      const outcome = await this.run(entry);
      if (!outcome.ok) throw outcome.error;
      if (entry.type === 'dot' && (entry.command === '.quit' || entry.command === '.exit')) return;
    }
  }

  async run(entry: ShellEntry): Promise<Outcome> {
    try {
      if (entry.type === 'dot') {
        await this.runDotCommand(entry.command, entry.argument);
      } else {
        for (const statement of entry.statements) {
          const result = await runStatement(this.session, statement, this.abortSignal);
          if (result.returnsRows) this.print(result);
        }
      }
      return { ok: true };
    } catch (error) {
      if (SragError.isInstance(error)) return { ok: false, error };
      throw error;
    }
  }

  private print(result: SqlResult): void {
    const text = this.options.json ? JSON.stringify({ columns: result.columns, rows: result.rows }) : formatTable(result);
    // Tables printed one after another read better apart; JSON lines stay one per line.
    process.stdout.write(`${this.printedResults > 0 && !this.options.json ? '\n' : ''}${text}\n`);
    this.printedResults += 1;
  }

  private async runDotCommand(command: string, argument: string): Promise<void> {
    switch (command) {
      case '.quit':
      case '.exit':
        return;
      case '.help':
        process.stdout.write(shellHelp);
        return;
      case '.tables': {
        const result = await runStatement(this.session, `SELECT name FROM (
            SELECT table_name AS name FROM duckdb_tables() WHERE NOT internal AND database_name = current_database()
            UNION SELECT view_name FROM duckdb_views() WHERE NOT internal AND database_name = current_database())
          WHERE name LIKE ${sqlString(argument || '%')} ORDER BY name`, this.abortSignal);
        const names = result.rows.map((row) => String(row[0]));
        if (this.options.json) this.print(result);
        else if (names.length > 0) process.stdout.write(`${inColumns(names)}\n`);
        return;
      }
      case '.schema': {
        const filter = argument ? ` AND name = ${sqlString(argument)}` : '';
        const result = await runStatement(this.session, `SELECT sql FROM (
            SELECT table_name AS name, sql FROM duckdb_tables() WHERE NOT internal AND database_name = current_database()
            UNION ALL SELECT view_name, sql FROM duckdb_views() WHERE NOT internal AND database_name = current_database())
          WHERE true${filter} ORDER BY name`, this.abortSignal);
        if (argument && result.rows.length === 0) {
          throw new SragError({ code: 'TABLE_NOT_FOUND', message: `no table or view named "${argument}"`, hint: '.tables lists them' });
        }
        if (this.options.json) this.print(result);
        else if (result.rows.length > 0) process.stdout.write(`${result.rows.map((row) => String(row[0])).join('\n')}\n`);
        return;
      }
      default:
        throw new SragError({ code: 'INPUT_INVALID', message: `unknown command ${command}`, hint: '.help lists the commands: .tables, .schema, .help, .quit' });
    }
  }
}

async function shell(session: SqlSession, options: SqlCommandOptions, runner: EntryRunner): Promise<number> {
  const shell = createInterface({ input: process.stdin, output: process.stdout, prompt: 'srag> ', history: readHistory(), historySize });
  const input = new ShellInput();
  let running = false;
  // On a terminal readline turns Ctrl-C into this event; the session cancels from this thread.
  shell.on('SIGINT', () => {
    if (running) {
      process.stdout.write('\ncancelling…\n');
      session.cancel();
      return;
    }
    input.clear();
    process.stdout.write('\n(.quit to leave)\n');
    shell.setPrompt('srag> ');
    shell.prompt();
  });
  process.stdout.write(`srag sql on ${options.db}; end statements with ";", .tables lists the tables, .help the commands and srag functions, .quit leaves\n`);
  shell.prompt();
  for await (const line of shell) {
    for (const entry of input.push(line)) {
      if (entry.type === 'dot' && (entry.command === '.quit' || entry.command === '.exit')) {
        shell.close();
        return 0;
      }
      appendHistory(entry.type === 'dot' ? entry.text : entry.text.replace(/\s*\n\s*/g, ' '));
      running = true;
      const outcome = await runner.run(entry).finally(() => { running = false; });
      if (!outcome.ok) process.stdout.write(`${outcome.error.message}${outcome.error.hint ? ` — ${outcome.error.hint}` : ''}\n`);
    }
    shell.setPrompt(input.pending ? '   ...> ' : 'srag> ');
    shell.prompt();
  }
  shell.close();
  return 0;
}

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

/** Names in columns across an 80-character line, filled row by row, as the DuckDB CLI lists tables. */
function inColumns(names: string[]): string {
  const width = Math.max(...names.map((name) => name.length)) + 2;
  const perLine = Math.max(1, Math.floor(80 / width));
  const lines: string[] = [];
  for (let start = 0; start < names.length; start += perLine) {
    lines.push(names.slice(start, start + perLine).map((name) => name.padEnd(width)).join('').trimEnd());
  }
  return lines.join('\n');
}

function readHistory(): string[] {
  try {
    // readline wants the newest entry first.
    return readFileSync(historyFile, 'utf8').split('\n').filter(Boolean).slice(-historySize).reverse();
  } catch {
    return [];
  }
}

function appendHistory(statement: string): void {
  try {
    appendFileSync(historyFile, `${statement}\n`, { mode: 0o600 });
  } catch {
    // No history is no reason to fail a statement.
  }
}
