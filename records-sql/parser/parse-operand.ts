import type { BinaryOperator, Expression } from '../syntax/sql-syntax.ts';
import type { SqlGrammar } from './sql-grammar.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';

/** `||` binds loosest among operands, then `+ -`, then `* / // %`, then unary signs and `::`. */
export function parseOperand(grammar: SqlGrammar): Expression {
  let left = parseAdditive(grammar);
  while (grammar.cursor.acceptSymbol('||')) left = { type: 'binary', operator: '||', left, right: parseAdditive(grammar) };
  return left;
}

function parseAdditive(grammar: SqlGrammar): Expression {
  const { cursor } = grammar;
  let left = parseMultiplicative(grammar);
  for (;;) {
    if (cursor.acceptSymbol('+')) left = { type: 'binary', operator: '+', left, right: parseMultiplicative(grammar) };
    else if (cursor.acceptSymbol('-')) left = { type: 'binary', operator: '-', left, right: parseMultiplicative(grammar) };
    else return left;
  }
}

function parseMultiplicative(grammar: SqlGrammar): Expression {
  const { cursor } = grammar;
  let left = grammar.unary();
  for (;;) {
    const token = cursor.peek();
    if (token.kind !== 'symbol' || !['*', '/', '//', '%'].includes(token.text)) return left;
    cursor.index += 1;
    left = { type: 'binary', operator: token.text as BinaryOperator, left, right: grammar.unary() };
  }
}

/** A negative number literal folds into the literal, as DuckDB's parser does. */
export function parseUnary(grammar: SqlGrammar): Expression {
  const { cursor } = grammar;
  if (cursor.acceptSymbol('-')) {
    const operand = grammar.unary();
    if (operand.type === 'literal' && typeof operand.value === 'number') return { ...operand, value: -operand.value };
    if (operand.type === 'literal' && operand.value instanceof SqlDecimal) {
      return { ...operand, value: new SqlDecimal(-operand.value.unscaled, operand.value.width, operand.value.scale) };
    }
    return { type: 'unary', operator: '-', operand };
  }
  if (cursor.acceptSymbol('+')) return grammar.unary();
  let expression = grammar.primary();
  for (;;) {
    if (cursor.acceptSymbol('::')) {
      const { type, integerDigits } = grammar.typeName();
      expression = { type: 'cast', operand: expression, targetType: type, tryCast: false, integerDigits };
    }
    else if (cursor.isSymbol('[')) cursor.unsupported('list indexing');
    else return expression;
  }
}
