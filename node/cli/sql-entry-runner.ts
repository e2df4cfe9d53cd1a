import { SragError, type SqlResult } from '../../core/index.ts';
import type { SqlSession } from '../sql-functions/harness/sql-session.ts';
import { sqlString } from '../runtime/sql-string.ts';
import { formatTable } from './format-table.ts';
import { runStatement } from './run-statement.ts';
import type { ShellEntry } from './shell-input.ts';

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

/**
 * The database's tables and views by the name a SELECT finds them under: bare in the main schema,
 * qualified in another (`srag_extract.hotels_ad6fc2af5324`, the records `srag_extract` keeps), with
 * the CREATE statement that `.schema` prints.
 */
const tablesAndViews = `SELECT CASE WHEN schema_name = 'main' THEN name ELSE schema_name || '.' || name END AS name, sql FROM (
    SELECT schema_name, table_name AS name, sql FROM duckdb_tables() WHERE NOT internal AND database_name = current_database()
    UNION ALL SELECT schema_name, view_name, sql FROM duckdb_views() WHERE NOT internal AND database_name = current_database())`;

/** What a statement or dot command printed, and whether it failed (the shell goes on; -c and scripts stop). */
type Outcome = { ok: true } | { ok: false; error: SragError };

/** Runs shell entries against the session and prints their results. */
export class EntryRunner {
  private printedResults = 0;

  constructor(private readonly session: SqlSession, private readonly options: { json?: boolean }, private readonly abortSignal: AbortSignal | undefined) {}

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
        const result = await runStatement(this.session, `SELECT name FROM (${tablesAndViews}) WHERE name LIKE ${sqlString(argument || '%')} ORDER BY name`, this.abortSignal);
        const names = result.rows.map((row) => String(row[0]));
        if (this.options.json) this.print(result);
        else if (names.length > 0) process.stdout.write(`${inColumns(names)}\n`);
        return;
      }
      case '.schema': {
        const filter = argument ? ` AND name = ${sqlString(argument)}` : '';
        const result = await runStatement(this.session, `SELECT sql FROM (${tablesAndViews}) WHERE true${filter} ORDER BY name`, this.abortSignal);
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
