import { foldingCase, perlClasses } from './character-classes.ts';
import { parseBracketClass, parseEscapedCharacter } from './parse-bracket-class.ts';
import { parseRepetition } from './parse-repetition.ts';
import { PatternCursor } from './pattern-cursor.ts';
import type { AssertionKind, CharacterTest, ParsedRegularExpression, RegularExpressionNode } from './regular-expression-syntax.ts';

export interface RegularExpressionFlags {
  caseInsensitive: boolean;
  /** `.` matches a newline too (DuckDB's option 's', `(?s)`; off by default, as in DuckDB). */
  dotAll: boolean;
  /** `^` and `$` match at line breaks too (`(?m)`). */
  multiLine: boolean;
}

/** Groups nest at most this deep (RE2 allows 1,000; generated patterns nest a few levels). */
const maximumNesting = 100;

const escapedAssertions = new Map<string, AssertionKind>([['b', 'wordBoundary'], ['B', 'notWordBoundary'], ['A', 'textStart'], ['z', 'textEnd']]);

/**
 * Parses RE2's syntax, which DuckDB's regexp functions use: literals, `.`, classes, `\d \w \s \b`,
 * anchors, groups (capturing, `(?:…)`, `(?P<name>…)`), flags `(?i) (?s) (?m)`, alternation and
 * greedy or lazy repetition. What RE2 refuses is refused here too (backreferences, lookaround,
 * possessive repetition), so no pattern needs backtracking: every one runs in linear time.
 */
export function parseRegularExpression(pattern: string, flags: RegularExpressionFlags): ParsedRegularExpression {
  const cursor = new PatternCursor(pattern);
  const groups = { count: 0 };
  const root = parseAlternation(cursor, { ...flags }, groups, 0);
  if (!cursor.atEnd()) cursor.fail('unexpected )');
  return { root, groupCount: groups.count };
}

/** `a|b|…` up to the end or a `)`; a flag group such as `(?i)` changes `scope` for the rest of it. */
function parseAlternation(cursor: PatternCursor, scope: RegularExpressionFlags, groups: { count: number }, depth: number): RegularExpressionNode {
  if (depth > maximumNesting) cursor.fail(`groups nest deeper than ${maximumNesting} levels`);
  const options: RegularExpressionNode[] = [];
  do {
    const items: RegularExpressionNode[] = [];
    while (!cursor.atEnd() && cursor.peek() !== '|' && cursor.peek() !== ')') {
      const atom = parseAtom(cursor, scope, groups, depth);
      if (atom) items.push(parseRepetition(cursor, atom));
    }
    options.push(items.length === 1 ? items[0]! : { type: 'sequence', items });
  } while (cursor.peek() === '|' && cursor.next());
  return options.length === 1 ? options[0]! : { type: 'alternation', options };
}

function parseAtom(cursor: PatternCursor, scope: RegularExpressionFlags, groups: { count: number }, depth: number): RegularExpressionNode | undefined {
  const character = cursor.next()!;
  const literal = (test: CharacterTest): RegularExpressionNode => ({ type: 'character', test: scope.caseInsensitive ? foldingCase(test) : test });
  const codePointIs = (codePoint: number): CharacterTest => (candidate) => candidate === codePoint;
  switch (character) {
    case '(': return parseGroup(cursor, scope, groups, depth);
    case '[': return literal(parseBracketClass(cursor));
    case '.': return { type: 'character', test: scope.dotAll ? () => true : (codePoint) => codePoint !== 10 };
    case '^': return { type: 'assertion', kind: scope.multiLine ? 'lineStart' : 'textStart' };
    case '$': return { type: 'assertion', kind: scope.multiLine ? 'lineEnd' : 'textEnd' };
    case '*': case '+': case '?': return cursor.fail(`missing argument to repetition operator: ${character}`);
    case '\\': {
      const escaped = cursor.peek() ?? cursor.fail('trailing \\');
      const kind = escapedAssertions.get(escaped);
      const perlClass = perlClasses.get(escaped);
      if (kind || perlClass || escaped === 'Q') cursor.index += 1;
      if (kind) return { type: 'assertion', kind };
      if (perlClass) return literal(perlClass);
      if (escaped !== 'Q') return literal(codePointIs(parseEscapedCharacter(cursor)));
      // \Q…\E: everything up to \E (or the end) is literal.
      const items: RegularExpressionNode[] = [];
      while (!cursor.atEnd() && cursor.ahead(2) !== '\\E') items.push(literal(codePointIs(cursor.next()!.codePointAt(0)!)));
      if (!cursor.atEnd()) cursor.index += 2;
      return { type: 'sequence', items };
    }
    default: return literal(codePointIs(character.codePointAt(0)!));
  }
}

/** After `(`: a capturing, named or non-capturing group, or a flag change such as `(?i)`. */
function parseGroup(cursor: PatternCursor, outer: RegularExpressionFlags, groups: { count: number }, depth: number): RegularExpressionNode | undefined {
  let scope = outer;
  let capture: number | undefined;
  if (cursor.peek() !== '?') {
    capture = ++groups.count;
  } else if (/^\?(?:=|!|<=|<!|>)/.test(cursor.ahead(3))) {
    cursor.fail('lookaround and atomic groups are not supported (DuckDB\'s RE2 refuses them too)');
  } else {
    const named = /^\?P?<[A-Za-z_][A-Za-z0-9_]*>/.exec(cursor.ahead(40));
    const flagged = named ? null : /^\?([ims]*)(?:-([ims]*))?([:)])/.exec(cursor.ahead(12));
    if (!named && !flagged) cursor.fail('invalid or unsupported group syntax after (?');
    cursor.index += (named ?? flagged)![0].length;
    if (named) capture = ++groups.count;
    if (flagged) {
      scope = { ...outer };
      for (const flag of flagged[1]!) setFlag(scope, flag, true);
      for (const flag of flagged[2] ?? '') setFlag(scope, flag, false);
      if (flagged[3] === ')') {
        Object.assign(outer, scope);
        return undefined;
      }
    }
  }
  const body = parseAlternation(cursor, { ...scope }, groups, depth + 1);
  if (cursor.next() !== ')') cursor.fail('missing )');
  return { type: 'group', capture, body };
}

function setFlag(scope: RegularExpressionFlags, flag: string, value: boolean): void {
  if (flag === 'i') scope.caseInsensitive = value;
  else if (flag === 's') scope.dotAll = value;
  else scope.multiLine = value;
}
