import type { PatternCursor } from './pattern-cursor.ts';
import type { RegularExpressionNode } from './regular-expression-syntax.ts';

/** RE2's limit on a counted repetition, `x{1000}`. */
const maximumRepetition = 1000;

/**
 * The repetition operator after an atom, if any: `*`, `+`, `?` or `{n}`, `{n,}`, `{n,m}`, each
 * lazy when followed by `?`. A `{` that starts no valid count is a literal, as in RE2; a second
 * operator (`a**`) and possessive ones (`a*+`) are refused, as RE2 refuses them.
 */
export function parseRepetition(cursor: PatternCursor, atom: RegularExpressionNode): RegularExpressionNode {
  const start = cursor.index;
  const bounds = readBounds(cursor);
  if (!bounds) return atom;
  if (atom.type === 'assertion') cursor.fail('missing argument to repetition operator');
  const greedy = cursor.peek() !== '?';
  if (!greedy) cursor.index += 1;
  if (readBounds(cursor) || cursor.peek() === '+') cursor.fail(`bad repetition operator: ${cursor.characters.slice(start, cursor.index + 1).join('')}`);
  return { type: 'repeat', body: atom, minimum: bounds.minimum, maximum: bounds.maximum, greedy };
}

function readBounds(cursor: PatternCursor): { minimum: number; maximum: number } | undefined {
  const character = cursor.peek();
  if (character === '*' || character === '+' || character === '?') {
    cursor.index += 1;
    return { minimum: character === '+' ? 1 : 0, maximum: character === '?' ? 1 : Infinity };
  }
  if (character !== '{') return undefined;
  const match = /^\{(\d+)(,(\d*))?\}/.exec(cursor.ahead(16));
  if (!match) return undefined;
  cursor.index += match[0].length;
  const minimum = Number(match[1]);
  const maximum = match[2] === undefined ? minimum : match[3] ? Number(match[3]) : Infinity;
  if (minimum > maximumRepetition || (maximum !== Infinity && (maximum > maximumRepetition || maximum < minimum))) {
    cursor.fail(`invalid repetition size: ${match[0]}`);
  }
  return { minimum, maximum };
}
