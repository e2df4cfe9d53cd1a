import { SqlRejectedError } from '../sql-engine-port.ts';
import type { SelectStatement } from '../syntax/sql-syntax.ts';
import { tokenizeSql } from '../syntax/tokenize-sql.ts';
import { checkNestingDepth } from './check-nesting-depth.ts';
import { parseExpression, parseNegation } from './parse-expression.ts';
import { parseFromList } from './parse-from-clause.ts';
import { parseOperand, parseUnary } from './parse-operand.ts';
import { parsePrimary } from './parse-primary.ts';
import { parseQuery } from './parse-query.ts';
import { parseTypeName } from './parse-type-name.ts';
import type { SqlGrammar } from './sql-grammar.ts';
import { statementWords } from './sql-words.ts';
import { TokenCursor } from './token-cursor.ts';

/** Rule entries in progress at once; a parenthesis costs about three (expression, NOT, sign). */
const maximumRuleDepth = 300;

/**
 * Parse one read-only SELECT (WITH … SELECT, set operations, ORDER BY, LIMIT) into a syntax tree.
 * A statement of another kind, or more than one statement, is refused with `SqlRejectedError`;
 * text that is not valid SQL of the subset fails with `SQL_FAILED` naming the position, which is
 * what the repair round shows the model.
 */
export function parseSelectStatement(sql: string): SelectStatement {
  const cursor = new TokenCursor(sql, tokenizeSql(sql));
  let depth = 0;
  /** The rules that recurse (parentheses, subqueries, NOT, signs) count their depth, so the call stack cannot overflow. */
  const nested = <T>(rule: () => T): T => {
    depth += 1;
    if (depth > maximumRuleDepth) cursor.fail('the query nests parentheses, subqueries, NOTs or signs too deeply; write it flatter');
    try {
      return rule();
    } finally {
      depth -= 1;
    }
  };
  const grammar: SqlGrammar = {
    cursor,
    query: () => nested(() => parseQuery(grammar)),
    expression: () => nested(() => parseExpression(grammar)),
    negation: () => nested(() => parseNegation(grammar)),
    operand: () => parseOperand(grammar),
    unary: () => nested(() => parseUnary(grammar)),
    primary: () => parsePrimary(grammar),
    fromList: () => parseFromList(grammar),
    typeName: () => parseTypeName(cursor),
  };
  const statement = parseStatement(grammar);
  checkNestingDepth(statement);
  return statement;
}

function parseStatement(grammar: SqlGrammar): SelectStatement {
  const { cursor } = grammar;
  const first = cursor.peek();
  if (first.kind === 'word' && statementWords.has(first.upper)) {
    throw new SqlRejectedError({ sql: cursor.sql, reason: `only a read-only SELECT is allowed (found ${first.upper})` });
  }
  if (!(cursor.isWord('SELECT') || cursor.isWord('WITH') || cursor.isSymbol('('))) {
    if (first.kind === 'end') cursor.fail('empty query');
    throw new SqlRejectedError({ sql: cursor.sql, reason: 'only a read-only SELECT is allowed' });
  }
  const statement = grammar.query();
  while (cursor.acceptSymbol(';'));
  const next = cursor.peek();
  if (next.kind !== 'end') {
    if (next.kind === 'word' && (statementWords.has(next.upper) || next.upper === 'SELECT' || next.upper === 'WITH')) {
      throw new SqlRejectedError({ sql: cursor.sql, reason: 'exactly one statement is allowed' });
    }
    cursor.fail(`syntax error at or near "${next.text}"`);
  }
  return statement;
}
