import { charactersPerStep, type QueryBudget } from '../query-budget.ts';
import { compileRegularExpression, type Program } from './compile-regular-expression.ts';
import { parseRegularExpression } from './parse-regular-expression.ts';
import type { RegularExpressionOptions } from './regular-expression-options.ts';
import { runProgram } from './run-program.ts';

/** A compiled pattern; every search charges its steps to the query's budget. */
export class RegularExpression {
  private constructor(private readonly program: Program, readonly groupCount: number) {}

  /** `anchored` matches the whole text only (regexp_full_match). */
  static compile(pattern: string, { flags, literal }: Pick<RegularExpressionOptions, 'flags' | 'literal'>, anchored = false): RegularExpression {
    const key = `${flags.caseInsensitive ? 'i' : ''}${flags.dotAll ? 's' : ''}${literal ? 'l' : ''}${anchored ? 'a' : ''}\u0000${pattern}`;
    let compiled = cache.get(key);
    if (!compiled) {
      // A literal pattern is quoted: \Q…\E, with each \E inside it written as \E\\E\Q.
      const source = literal ? `\\Q${pattern.split('\\E').join('\\E\\\\E\\Q')}` : pattern;
      const parsed = parseRegularExpression(source, flags);
      if (anchored) {
        parsed.root = { type: 'sequence', items: [{ type: 'assertion', kind: 'textStart' }, { type: 'group', capture: undefined, body: parsed.root }, { type: 'assertion', kind: 'textEnd' }] };
      }
      compiled = new RegularExpression(compileRegularExpression(parsed, pattern), parsed.groupCount);
      if (cache.size >= cacheSize) cache.delete(cache.keys().next().value!);
      cache.set(key, compiled);
    }
    return compiled;
  }

  /** The first match at or after `from`: capture slots (start and end of group 0, 1, …; -1 if unset), or null. */
  search(text: string, from: number, budget: QueryBudget): number[] | null {
    return runProgram(this.program, text, from, (steps) => budget.work(Math.ceil(steps / charactersPerStep)));
  }
}

/** Compiled programs are immutable, so statements share them; a query calling one pattern per row compiles it once. */
const cache = new Map<string, RegularExpression>();
const cacheSize = 64;
