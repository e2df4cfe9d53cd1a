import { checkTextLength, type QueryBudget } from '../query-budget.ts';
import type { RegularExpression } from './regular-expression.ts';

/**
 * regexp_replace as RE2 does it: the first match, or every match (`global`), replaced by
 * `replacement`, in which `\0`…`\9` stand for groups and `\\` for a backslash. An empty match right
 * after the previous match is skipped (so 'aaa' with 'a*' becomes one replacement); a reference to
 * a group the pattern lacks leaves the text unchanged, as in DuckDB.
 */
export function replaceMatches(text: string, expression: RegularExpression, replacement: string, global: boolean, budget: QueryBudget): string {
  const parts: string[] = [];
  let length = 0;
  const append = (part: string) => {
    length += part.length;
    checkTextLength(length);
    parts.push(part);
  };
  let copied = 0;
  let previousEnd = -1;
  for (let from = 0; from <= text.length; ) {
    const slots = expression.search(text, from, budget);
    if (!slots) break;
    const [start, end] = slots as [number, number];
    const step = start < text.length && text.codePointAt(start)! > 0xffff ? 2 : 1;
    if (start === end && start === previousEnd) {
      from = start + step;
      continue;
    }
    const substituted = substitute(replacement, text, slots, expression.groupCount);
    if (substituted === undefined) return text;
    append(text.slice(copied, start));
    append(substituted);
    copied = end;
    previousEnd = end;
    if (!global) break;
    from = start === end ? end + step : end;
  }
  append(text.slice(copied));
  return parts.join('');
}

function substitute(replacement: string, text: string, slots: number[], groupCount: number): string | undefined {
  let output = '';
  for (let index = 0; index < replacement.length; index += 1) {
    const character = replacement[index]!;
    const next = replacement[index + 1];
    if (character !== '\\' || next === undefined) {
      output += character;
    } else if (/[0-9]/.test(next)) {
      const group = Number(next);
      if (group > groupCount) return undefined;
      const start = slots[2 * group]!;
      output += start < 0 ? '' : text.slice(start, slots[2 * group + 1]);
      index += 1;
    } else {
      output += next === '\\' ? '\\' : `\\${next}`;
      index += 1;
    }
  }
  return output;
}
