import type { Expression } from '../syntax/sql-syntax.ts';
import { parseComparison } from './parse-comparison.ts';
import type { SqlGrammar } from './sql-grammar.ts';

/** An expression: OR binds loosest, then AND, then NOT, then comparisons. */
export function parseExpression(grammar: SqlGrammar): Expression {
  const { cursor } = grammar;
  let left = parseConjunction(grammar);
  while (cursor.acceptWord('OR')) left = { type: 'binary', operator: 'OR', left, right: parseConjunction(grammar) };
  return left;
}

function parseConjunction(grammar: SqlGrammar): Expression {
  const { cursor } = grammar;
  let left = grammar.negation();
  while (cursor.acceptWord('AND')) left = { type: 'binary', operator: 'AND', left, right: grammar.negation() };
  return left;
}

export function parseNegation(grammar: SqlGrammar): Expression {
  if (grammar.cursor.acceptWord('NOT')) return { type: 'unary', operator: 'NOT', operand: grammar.negation() };
  return parseComparison(grammar);
}
