import type { Expression } from '../syntax/sql-syntax.ts';
import type { SqlGrammar } from './sql-grammar.ts';

type FunctionCall = Extract<Expression, { type: 'function' }>;

/** After a name: a column (`name`, `t.name`) or, unless the name was quoted, a call (`name(...)`). */
export function parseNameReference(grammar: SqlGrammar, first: string, quoted: boolean): Expression {
  const { cursor } = grammar;
  if (!quoted && cursor.isSymbol('(')) return parseFunctionCall(grammar, first.toLowerCase());
  if (cursor.acceptSymbol('.')) {
    const second = cursor.next();
    if (second.kind !== 'word' && second.kind !== 'quotedName') cursor.fail('a column name must follow "."');
    if (cursor.isSymbol('(')) cursor.unsupported('qualified function names');
    return { type: 'column', table: first.toLowerCase(), name: (second as { text: string }).text.toLowerCase() };
  }
  return { type: 'column', name: first.toLowerCase() };
}

/** `name(*)`, `name([DISTINCT|ALL] arguments)`, with an optional `FILTER (WHERE …)`. */
function parseFunctionCall(grammar: SqlGrammar, name: string): FunctionCall {
  const { cursor } = grammar;
  cursor.expectSymbol('(');
  const call: FunctionCall = { type: 'function', name, args: [], distinct: false, star: false };
  if (cursor.acceptSymbol('*')) {
    call.star = true;
  } else if (!cursor.isSymbol(')')) {
    if (cursor.acceptWord('DISTINCT')) call.distinct = true;
    else cursor.acceptWord('ALL');
    do call.args.push(grammar.expression()); while (cursor.acceptSymbol(','));
    if (cursor.isWord('ORDER')) cursor.unsupported('ORDER BY inside an aggregate');
  }
  cursor.expectSymbol(')');
  if (cursor.acceptWord('FILTER')) {
    cursor.expectSymbol('(');
    cursor.expectWord('WHERE');
    call.filter = grammar.expression();
    cursor.expectSymbol(')');
  }
  if (cursor.isWord('OVER')) cursor.unsupported('window functions (OVER)');
  return call;
}
