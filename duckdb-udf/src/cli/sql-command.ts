import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { firstLine, SragError, type SqlResult } from '../../../core/index.ts';
import { openSqlSession, SqlSessionError, type SqlSession } from '../harness/sql-session.ts';
import { sragErrorCodeInMessage } from '../table-functions/render-sql-error.ts';
import { formatTable } from './format-table.ts';

export interface SqlCommandOptions {
  db: string;
  command?: string;
  json?: boolean;
}

const historyFile = join(homedir(), '.srag_history');
const historySize = 1000;

const shellHelp = `srag functions (docs/sql-functions.md has the details):
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
srag tables: srag_tables, srag_extract_schemas, srag_ingestion_log, srag_evidence, srag_cache
Shell: end a statement with ";"; Ctrl-C cancels the running statement; .quit leaves; history in ~/.srag_history
`;

/**
 * `srag sql`: the user's own SQL on the store (trusted, unlike generated SQL), with the srag
 * functions registered. With `-c` it runs the statements and prints the last result; without,
 * it reads statements from stdin, or opens a small shell on a terminal.
 */
export async function sqlCommand(options: SqlCommandOptions, abortSignal?: AbortSignal): Promise<number> {
  const session = await openSqlSession(options.db);
  const onAbort = () => session.cancel();
  abortSignal?.addEventListener('abort', onAbort);
  try {
    const run = (sql: string) => runStatement(session, sql, abortSignal);
    const print = (result: SqlResult) => process.stdout.write(options.json ? `${JSON.stringify(result)}\n` : `${formatTable(result)}\n`);
    if (options.command !== undefined) {
      print(await run(options.command));
      return 0;
    }
    if (!process.stdin.isTTY) {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      print(await run(Buffer.concat(chunks).toString('utf8')));
      return 0;
    }
    return await shell(session, options, print);
  } finally {
    abortSignal?.removeEventListener('abort', onAbort);
    await session.close();
  }
}

async function shell(session: SqlSession, options: SqlCommandOptions, print: (result: SqlResult) => void): Promise<number> {
  const shell = createInterface({ input: process.stdin, output: process.stdout, prompt: 'srag> ', history: readHistory(), historySize });
  let running = false;
  let buffer = '';
  // On a terminal readline turns Ctrl-C into this event; the session cancels from this thread.
  shell.on('SIGINT', () => {
    if (running) {
      process.stdout.write('\ncancelling…\n');
      session.cancel();
      return;
    }
    buffer = '';
    process.stdout.write('\n(.quit to leave)\n');
    shell.setPrompt('srag> ');
    shell.prompt();
  });
  process.stdout.write(`srag sql on ${options.db}; end statements with ";", .help lists the srag functions, .quit to leave\n`);
  shell.prompt();
  for await (const line of shell) {
    const trimmed = line.trim();
    if (!buffer && (trimmed === '.quit' || trimmed === '.exit')) break;
    if (!buffer && trimmed === '.help') {
      process.stdout.write(shellHelp);
    } else if (trimmed || buffer) {
      buffer += `${line}\n`;
      if (trimmed.endsWith(';')) {
        appendHistory(buffer.trim().replace(/\s*\n\s*/g, ' '));
        running = true;
        try {
          print(await session.run(buffer));
        } catch (error) {
          process.stdout.write(`${error instanceof SqlSessionError ? firstLine(error.message) : (error as Error).message}\n`);
        } finally {
          running = false;
        }
        buffer = '';
      }
    }
    shell.setPrompt(buffer ? '   ...> ' : 'srag> ');
    shell.prompt();
  }
  shell.close();
  return 0;
}

/**
 * One statement through the session; a failure becomes a one-line `SragError` (SQL_FAILED, or
 * CANCELLED after Ctrl-C) for the CLI's error table.
 */
export async function runStatement(session: SqlSession, sql: string, abortSignal?: AbortSignal): Promise<SqlResult> {
  try {
    return await session.run(sql);
  } catch (error) {
    if (abortSignal?.aborted) {
      throw new SragError({ code: 'CANCELLED', message: 'cancelled; what was extracted before is cached, so running the statement again resumes', cause: error });
    }
    const message = firstLine((error as Error).message);
    throw new SragError({ code: sragErrorCodeInMessage(message) ?? 'SQL_FAILED', message, cause: error });
  }
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
