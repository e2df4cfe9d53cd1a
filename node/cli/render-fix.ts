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
    case 'price-model':
      return `add it to a JSON file of prices and set SRAG_PRICES to its path: ${priceEntry(fix.model)} in USD per million tokens (or leave out --max-cost)`;
  }
}

/** A prices file's entry for `model`, its numbers left for the user. */
function priceEntry(model: string): string {
  return `{${JSON.stringify(model)}: {"input": …, "cached_input": …, "output": …}}`;
}

function listed(choices: readonly string[]): string {
  return `${choices.slice(0, 10).join(', ')}${choices.length > 10 ? ', …' : ''}`;
}
