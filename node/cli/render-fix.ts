import type { ErrorFix } from '../../core/index.ts';
import { sragCommandLine } from '../runtime/quote-shell-argument.ts';

/** An error's fix in the command line's words: the option to add, or the command to run (with `--db` when it is not the default). */
export function renderFixForCli(fix: ErrorFix, database: string): string {
  switch (fix.kind) {
    case 'name-table':
      return `pass --table with one of: ${listed(fix.choices)}`;
    case 'extend-schema':
      return `add them (extracting only them from every document) with: ${sragCommandLine(['ask', fix.question, '--extend-schema', ...(fix.table ? ['--table', fix.table] : [])], database)}`;
    case 'answer-from-sql':
      return 'leave out --hybrid';
    case 'name-item':
      return `one of: ${listed(fix.choices)}`;
  }
}

function listed(choices: readonly string[]): string {
  return `${choices.slice(0, 10).join(', ')}${choices.length > 10 ? ', …' : ''}`;
}
