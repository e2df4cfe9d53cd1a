import type { BinaryOperator, Expression } from '../syntax/sql-syntax.ts';
import type { SqlGrammar } from './sql-grammar.ts';

const comparisonSymbols = new Map<string, BinaryOperator>([['=', '='], ['==', '='], ['<>', '<>'], ['!=', '<>'], ['<', '<'], ['<=', '<='], ['>', '>'], ['>=', '>=']]);

/** An operand followed by any chain of `= <> < …`, IS …, [NOT] BETWEEN, IN, LIKE and ILIKE. */
export function parseComparison(grammar: SqlGrammar): Expression {
  const { cursor } = grammar;
  let left = grammar.operand();
  for (;;) {
    const token = cursor.peek();
    const operator = token.kind === 'symbol' ? comparisonSymbols.get(token.text) : undefined;
    if (operator) {
      cursor.index += 1;
      if (cursor.isWord('ANY') || cursor.isWord('ALL') || cursor.isWord('SOME')) cursor.unsupported(`${(token as { text: string }).text} ${cursor.upperAhead()} (subquery)`);
      left = { type: 'binary', operator, left, right: grammar.operand() };
      continue;
    }
    if (cursor.acceptWord('IS')) {
      const negated = cursor.acceptWord('NOT');
      if (cursor.acceptWord('NULL')) left = { type: 'isNull', operand: left, negated };
      else if (cursor.acceptWord('TRUE')) left = { type: 'isBoolean', operand: left, value: true, negated };
      else if (cursor.acceptWord('FALSE')) left = { type: 'isBoolean', operand: left, value: false, negated };
      else if (cursor.acceptWord('DISTINCT')) {
        cursor.expectWord('FROM');
        left = { type: 'isDistinctFrom', left, right: grammar.operand(), negated };
      } else cursor.fail('IS must be followed by NULL, TRUE, FALSE or DISTINCT FROM');
      continue;
    }
    const negated = cursor.isWord('NOT') && ['BETWEEN', 'IN', 'LIKE', 'ILIKE', 'SIMILAR', 'GLOB'].includes(cursor.upperAhead(1));
    if (negated) cursor.index += 1;
    if (cursor.acceptWord('BETWEEN')) {
      const low = grammar.operand();
      cursor.expectWord('AND');
      left = { type: 'between', operand: left, low, high: grammar.operand(), negated };
      continue;
    }
    if (cursor.acceptWord('IN')) {
      cursor.expectSymbol('(');
      if (cursor.isWord('SELECT') || cursor.isWord('WITH')) {
        left = { type: 'inSubquery', operand: left, query: grammar.query(), negated };
      } else {
        const list: Expression[] = [];
        do list.push(grammar.expression()); while (cursor.acceptSymbol(','));
        left = { type: 'inList', operand: left, list, negated };
      }
      cursor.expectSymbol(')');
      continue;
    }
    if (cursor.isWord('LIKE') || cursor.isWord('ILIKE')) {
      const caseInsensitive = cursor.upperAhead() === 'ILIKE';
      cursor.index += 1;
      const pattern = grammar.operand();
      const escape = cursor.acceptWord('ESCAPE') ? grammar.operand() : undefined;
      left = { type: 'like', operand: left, pattern, negated, caseInsensitive, escape };
      continue;
    }
    if (cursor.isWord('SIMILAR') || cursor.isWord('GLOB')) cursor.unsupported(cursor.upperAhead());
    if (negated) cursor.fail('NOT must be followed by BETWEEN, IN, LIKE or ILIKE here');
    return left;
  }
}
