import type { CharacterTest } from './regular-expression-syntax.ts';

const between = (low: number, high: number): CharacterTest => (codePoint) => codePoint >= low && codePoint <= high;
const anyOf = (...tests: CharacterTest[]): CharacterTest => (codePoint) => tests.some((test) => test(codePoint));
const not = (test: CharacterTest): CharacterTest => (codePoint) => !test(codePoint);

const digit = between(48, 57);
const upper = between(65, 90);
const lower = between(97, 122);
const word = anyOf(digit, upper, lower, (codePoint) => codePoint === 95);
const space = (codePoint: number) => codePoint === 32 || (codePoint >= 9 && codePoint <= 13 && codePoint !== 11);

/** RE2's Perl classes (`\d`, `\w`, `\s` and their negations): ASCII only, as in RE2. */
export const perlClasses: ReadonlyMap<string, CharacterTest> = new Map([
  ['d', digit], ['D', not(digit)], ['w', word], ['W', not(word)], ['s', space], ['S', not(space)],
]);

/** The POSIX classes RE2 accepts inside brackets (`[[:alpha:]]`), ASCII only. */
export const posixClasses: ReadonlyMap<string, CharacterTest> = new Map([
  ['alpha', anyOf(upper, lower)], ['digit', digit], ['alnum', anyOf(digit, upper, lower)], ['upper', upper], ['lower', lower],
  ['space', anyOf(space, (codePoint) => codePoint === 11)], ['blank', (codePoint) => codePoint === 32 || codePoint === 9], ['word', word],
  ['xdigit', anyOf(digit, between(65, 70), between(97, 102))], ['punct', anyOf(between(33, 47), between(58, 64), between(91, 96), between(123, 126))],
  ['cntrl', anyOf(between(0, 31), (codePoint) => codePoint === 127)], ['print', between(32, 126)], ['graph', between(33, 126)],
]);

export function isWordCharacter(codePoint: number | undefined): boolean {
  return codePoint !== undefined && word(codePoint);
}

/** A test that also accepts the other case of a character (simple case folding). */
export function foldingCase(test: CharacterTest): CharacterTest {
  return (codePoint) => {
    if (test(codePoint)) return true;
    const character = String.fromCodePoint(codePoint);
    const lowered = character.toLowerCase();
    const raised = character.toUpperCase();
    return (lowered !== character && test(lowered.codePointAt(0)!)) || (raised !== character && test(raised.codePointAt(0)!));
  };
}

export { anyOf, between, not };
