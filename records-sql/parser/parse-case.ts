import type { Expression } from '../syntax/sql-syntax.ts';
import type { SqlGrammar } from './sql-grammar.ts';

/** After CASE: `[operand] WHEN … THEN … [ELSE …] END`. */
export function parseCase(grammar: SqlGrammar): Expression {
  const { cursor } = grammar;
  const expression: Extract<Expression, { type: 'case' }> = { type: 'case', branches: [] };
  if (!cursor.isWord('WHEN')) expression.operand = grammar.expression();
  while (cursor.acceptWord('WHEN')) {
    const when = grammar.expression();
    cursor.expectWord('THEN');
    expression.branches.push({ when, then: grammar.expression() });
  }
  if (expression.branches.length === 0) cursor.fail('CASE needs at least one WHEN');
  if (cursor.acceptWord('ELSE')) expression.otherwise = grammar.expression();
  cursor.expectWord('END');
  return expression;
}
