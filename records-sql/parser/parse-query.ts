import type { OrderItem, SelectStatement } from '../syntax/sql-syntax.ts';
import { parseSetOperations } from './parse-set-operations.ts';
import type { SqlGrammar } from './sql-grammar.ts';
import type { TokenCursor } from './token-cursor.ts';

/** `[WITH name AS (query), …] body [ORDER BY …] [LIMIT n] [OFFSET n]`. */
export function parseQuery(grammar: SqlGrammar): SelectStatement {
  const { cursor } = grammar;
  const ctes: SelectStatement['with'] = [];
  if (cursor.acceptWord('WITH')) {
    if (cursor.acceptWord('RECURSIVE')) cursor.unsupported('WITH RECURSIVE');
    do {
      const name = cursor.name('a CTE name');
      if (cursor.isSymbol('(')) cursor.unsupported('column lists on a CTE');
      cursor.expectWord('AS');
      if (cursor.acceptWord('NOT')) cursor.expectWord('MATERIALIZED');
      else cursor.acceptWord('MATERIALIZED');
      cursor.expectSymbol('(');
      const query = grammar.query();
      cursor.expectSymbol(')');
      ctes.push({ name: name.toLowerCase(), query });
    } while (cursor.acceptSymbol(','));
  }
  const body = parseSetOperations(grammar);
  const orderBy: OrderItem[] = [];
  let limit: number | undefined;
  let offset: number | undefined;
  if (cursor.acceptWord('ORDER')) {
    cursor.expectWord('BY');
    if (cursor.isWord('ALL')) cursor.unsupported('ORDER BY ALL');
    do orderBy.push(parseOrderItem(grammar)); while (cursor.acceptSymbol(','));
  }
  for (;;) {
    if (cursor.acceptWord('LIMIT')) limit = parseCount(cursor, 'LIMIT');
    else if (cursor.acceptWord('OFFSET')) offset = parseCount(cursor, 'OFFSET');
    else break;
  }
  return { with: ctes, body, orderBy, limit, offset };
}

function parseCount(cursor: TokenCursor, clause: string): number {
  const token = cursor.next();
  if (token.kind !== 'number' || !/^[0-9]+$/.test(token.text)) cursor.fail(`${clause} takes a whole number`);
  return Number((token as { text: string }).text);
}

function parseOrderItem(grammar: SqlGrammar): OrderItem {
  const { cursor } = grammar;
  const expression = grammar.expression();
  let descending = false;
  if (cursor.acceptWord('DESC')) descending = true;
  else cursor.acceptWord('ASC');
  let nullsFirst = false;
  if (cursor.acceptWord('NULLS')) {
    if (cursor.acceptWord('FIRST')) nullsFirst = true;
    else cursor.expectWord('LAST');
  }
  return { expression, descending, nullsFirst };
}
