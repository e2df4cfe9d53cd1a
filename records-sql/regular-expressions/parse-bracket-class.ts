import { anyOf, not, perlClasses, posixClasses } from './character-classes.ts';
import type { PatternCursor } from './pattern-cursor.ts';
import type { CharacterTest } from './regular-expression-syntax.ts';

const controlEscapes = new Map([['n', 10], ['t', 9], ['r', 13], ['f', 12], ['v', 11], ['a', 7]]);

/** After `[`: a class of characters, ranges, `\d`-style and `[:alpha:]`-style classes, up to `]`. */
export function parseBracketClass(cursor: PatternCursor): CharacterTest {
  const negated = cursor.peek() === '^';
  if (negated) cursor.index += 1;
  const tests: CharacterTest[] = [];
  let first = true;
  while (cursor.peek() !== ']' || first) {
    first = false;
    const character = cursor.peek();
    if (character === undefined) cursor.fail('missing ]');
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(cursor.ahead(12));
    if (posix) {
      const test = posixClasses.get(posix[2]!) ?? cursor.fail(`invalid character class range: ${posix[0]}`);
      tests.push(posix[1] ? not(test) : test);
      cursor.index += posix[0].length;
      continue;
    }
    if (character === '\\' && perlClasses.has(cursor.characters[cursor.index + 1] ?? '')) {
      tests.push(perlClasses.get(cursor.characters[cursor.index + 1]!)!);
      cursor.index += 2;
      continue;
    }
    const low = readClassCharacter(cursor);
    if (cursor.peek() === '-' && cursor.characters[cursor.index + 1] !== ']' && cursor.characters[cursor.index + 1] !== undefined) {
      cursor.index += 1;
      const high = readClassCharacter(cursor);
      if (high < low) cursor.fail('invalid character class range');
      tests.push((codePoint) => codePoint >= low && codePoint <= high);
    } else {
      tests.push((codePoint) => codePoint === low);
    }
  }
  cursor.index += 1;
  const test = anyOf(...tests);
  return negated ? not(test) : test;
}

function readClassCharacter(cursor: PatternCursor): number {
  const character = cursor.next()!;
  return character === '\\' ? parseEscapedCharacter(cursor) : character.codePointAt(0)!;
}

/**
 * After `\`: one character, as RE2 reads it: `\n`, `\t` and the other controls, `\xHH`, `\x{H…}`,
 * or a punctuation character taken literally. A backreference (`\1`) or an unknown letter is refused.
 */
export function parseEscapedCharacter(cursor: PatternCursor): number {
  const character = cursor.next() ?? cursor.fail('trailing \\');
  const control = controlEscapes.get(character);
  if (control !== undefined) return control;
  if (character === 'x') {
    const hexadecimal = /^(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{2}))/.exec(cursor.ahead(8)) ?? cursor.fail('invalid escape sequence: \\x');
    cursor.index += hexadecimal[0].length;
    return Number.parseInt(hexadecimal[1] ?? hexadecimal[2]!, 16);
  }
  if (/[0-9]/.test(character)) cursor.fail(`invalid escape sequence: \\${character} (backreferences are not supported, as in DuckDB)`);
  if (/[A-Za-z]/.test(character)) cursor.fail(`invalid escape sequence: \\${character}`);
  return character.codePointAt(0)!;
}
