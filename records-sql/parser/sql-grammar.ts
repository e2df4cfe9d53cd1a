import type { Expression, SelectStatement, TableReference } from '../syntax/sql-syntax.ts';
import type { TypeName } from './parse-type-name.ts';
import type { TokenCursor } from './token-cursor.ts';

/**
 * The rules of the SELECT grammar that other rules descend into, bound to one cursor. Each rule
 * lives in its own file and reaches the others only through this object, so the files of the
 * recursive-descent parser do not import one another.
 */
export interface SqlGrammar {
  cursor: TokenCursor;
  /** WITH … SELECT … ORDER BY … LIMIT … */
  query(): SelectStatement;
  /** A whole expression (OR is the loosest operator). */
  expression(): Expression;
  /** NOT and what it binds to. */
  negation(): Expression;
  /** An operand of a comparison: `||`, arithmetic and everything tighter. */
  operand(): Expression;
  /** Unary minus and plus, casts with `::`, and a primary. */
  unary(): Expression;
  /** A literal, a name, a call, a parenthesized expression or subquery, CASE, CAST… */
  primary(): Expression;
  /** The FROM list (comma-separated joined tables). */
  fromList(): TableReference;
  /** A type name after CAST … AS or `::`. */
  typeName(): TypeName;
}
