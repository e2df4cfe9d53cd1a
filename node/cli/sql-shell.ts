import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline/promises';
import type { SqlSession } from '../sql-functions/harness/sql-session.ts';
import type { EntryRunner } from './sql-entry-runner.ts';
import { ShellInput } from './shell-input.ts';

const historyFile = join(homedir(), '.srag_history');
const historySize = 1000;

/** `srag sql` on a terminal: a shell with history (~/.srag_history), Ctrl-C cancelling the running statement. */
export async function shell(session: SqlSession, options: { db: string }, runner: EntryRunner): Promise<number> {
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
