import type { SelectItem } from '../syntax/sql-syntax.ts';
import type { SqlGrammar } from './sql-grammar.ts';
import { reservedWords } from './sql-words.ts';
import type { TokenCursor } from './token-cursor.ts';

/** `*`, `t.*`, or an expression with an optional alias; `text` keeps how it was written. */
export function parseSelectItem(grammar: SqlGrammar): SelectItem {
  const { cursor } = grammar;
  if (cursor.acceptSymbol('*')) {
    if (cursor.isWord('EXCLUDE') || cursor.isWord('REPLACE') || cursor.isWord('RENAME')) cursor.unsupported(`* ${cursor.upperAhead()}`);
    return { type: 'star' };
  }
  const token = cursor.peek();
  const after = cursor.lookAhead(1);
  const third = cursor.lookAhead(2);
  if ((token.kind === 'word' || token.kind === 'quotedName') && after.kind === 'symbol' && after.text === '.' && third.kind === 'symbol' && third.text === '*') {
    cursor.index += 3;
    return { type: 'star', table: token.text.toLowerCase() };
  }
  const start = token.position;
  const expression = grammar.expression();
  const text = cursor.sql.slice(start, cursor.peek().position).trim();
  const alias = parseAlias(cursor);
  return { type: 'expression', expression, alias, text };
}

/** `AS name`, or a bare name, quoted name or string that is not a reserved word. */
export function parseAlias(cursor: TokenCursor): string | undefined {
  if (cursor.acceptWord('AS')) return cursor.name('an alias');
  const token = cursor.peek();
  if (token.kind === 'quotedName' || token.kind === 'string' || (token.kind === 'word' && !reservedWords.has(token.upper))) {
    cursor.index += 1;
    return token.text;
  }
  return undefined;
}
