import type { Expression, SelectCore, SelectItem } from '../syntax/sql-syntax.ts';
import { parseSelectItem } from './parse-select-item.ts';
import type { SqlGrammar } from './sql-grammar.ts';

/** `SELECT [DISTINCT] items [FROM …] [WHERE …] [GROUP BY …|ALL] [HAVING …]`. */
export function parseSelectCore(grammar: SqlGrammar): SelectCore {
  const { cursor } = grammar;
  cursor.expectWord('SELECT');
  let distinct = false;
  if (cursor.acceptWord('DISTINCT')) {
    if (cursor.isWord('ON')) cursor.unsupported('DISTINCT ON');
    distinct = true;
  } else {
    cursor.acceptWord('ALL');
  }
  const items: SelectItem[] = [];
  do items.push(parseSelectItem(grammar)); while (cursor.acceptSymbol(','));
  const core: SelectCore = { type: 'select', distinct, items };
  if (cursor.acceptWord('INTO')) cursor.unsupported('SELECT INTO');
  if (cursor.acceptWord('FROM')) core.from = grammar.fromList();
  if (cursor.acceptWord('WHERE')) core.where = grammar.expression();
  if (cursor.acceptWord('GROUP')) {
    cursor.expectWord('BY');
    if (cursor.acceptWord('ALL')) {
      core.groupBy = 'ALL';
    } else {
      const groupBy: Expression[] = [];
      do groupBy.push(grammar.expression()); while (cursor.acceptSymbol(','));
      core.groupBy = groupBy;
    }
  }
  if (cursor.acceptWord('HAVING')) core.having = grammar.expression();
  if (cursor.isWord('WINDOW') || cursor.isWord('QUALIFY')) cursor.unsupported('window functions');
  return core;
}
