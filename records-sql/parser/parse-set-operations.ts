import type { QueryBody, SetOperation } from '../syntax/sql-syntax.ts';
import { parseSelectCore } from './parse-select-core.ts';
import type { SqlGrammar } from './sql-grammar.ts';

/** SELECTs joined by UNION [ALL], INTERSECT and EXCEPT, left to right. */
export function parseSetOperations(grammar: SqlGrammar): QueryBody {
  const { cursor } = grammar;
  let left = parseSetOperand(grammar);
  for (;;) {
    let operator: SetOperation['operator'];
    if (cursor.acceptWord('UNION')) {
      if (cursor.acceptWord('BY')) cursor.unsupported('UNION BY NAME');
      operator = cursor.acceptWord('ALL') ? 'UNION ALL' : 'UNION';
      cursor.acceptWord('DISTINCT');
    } else if (cursor.acceptWord('INTERSECT')) {
      operator = 'INTERSECT';
      cursor.acceptWord('DISTINCT');
    } else if (cursor.acceptWord('EXCEPT')) {
      operator = 'EXCEPT';
      cursor.acceptWord('DISTINCT');
    } else {
      return left;
    }
    left = { type: 'setOperation', operator, left, right: parseSetOperand(grammar) };
  }
}

function parseSetOperand(grammar: SqlGrammar): QueryBody {
  const { cursor } = grammar;
  if (cursor.acceptSymbol('(')) {
    const inner = grammar.query();
    cursor.expectSymbol(')');
    if (inner.with.length || inner.orderBy.length || inner.limit !== undefined || inner.offset !== undefined) {
      cursor.unsupported('ORDER BY, LIMIT or WITH inside a parenthesized set operand');
    }
    return inner.body;
  }
  return parseSelectCore(grammar);
}
