/** Whether a character (a code point) is one a pattern element accepts. */
export type CharacterTest = (codePoint: number) => boolean;

export type AssertionKind = 'textStart' | 'textEnd' | 'lineStart' | 'lineEnd' | 'wordBoundary' | 'notWordBoundary';

/**
 * A parsed regular expression. Flags ((?i), (?s), (?m) and the function's options) are already
 * applied: a `character` test folds case, `.` includes a newline or not, `^` is a line start or not.
 */
export type RegularExpressionNode =
  | { type: 'character'; test: CharacterTest }
  | { type: 'sequence'; items: RegularExpressionNode[] }
  | { type: 'alternation'; options: RegularExpressionNode[] }
  | { type: 'group'; capture: number | undefined; body: RegularExpressionNode }
  | { type: 'repeat'; body: RegularExpressionNode; minimum: number; maximum: number; greedy: boolean }
  | { type: 'assertion'; kind: AssertionKind };

export interface ParsedRegularExpression {
  root: RegularExpressionNode;
  /** Capturing groups, numbered from 1 in the order their `(` appears. */
  groupCount: number;
}
