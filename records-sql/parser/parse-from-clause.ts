import type { TableReference } from '../syntax/sql-syntax.ts';
import { parseTablePrimary } from './parse-table-primary.ts';
import type { SqlGrammar } from './sql-grammar.ts';

type JoinKind = Extract<TableReference, { type: 'join' }>['kind'];

/** The FROM list: joined tables separated by commas (each comma a CROSS JOIN). */
export function parseFromList(grammar: SqlGrammar): TableReference {
  let reference = parseJoinedTable(grammar);
  while (grammar.cursor.acceptSymbol(',')) reference = { type: 'join', kind: 'CROSS', left: reference, right: parseJoinedTable(grammar) };
  return reference;
}

/** A table and the joins that follow it, left to right; every join but CROSS needs ON or USING. */
function parseJoinedTable(grammar: SqlGrammar): TableReference {
  const { cursor } = grammar;
  let left = parseTablePrimary(grammar);
  for (;;) {
    if (cursor.isWord('NATURAL') || cursor.isWord('ASOF') || cursor.isWord('POSITIONAL') || cursor.isWord('ANTI') || cursor.isWord('SEMI')) {
      cursor.unsupported(`${cursor.upperAhead()} JOIN`);
    }
    let kind: JoinKind;
    if (cursor.acceptWord('CROSS')) kind = 'CROSS';
    else if (cursor.acceptWord('INNER')) kind = 'INNER';
    else if (cursor.acceptWord('LEFT')) kind = 'LEFT';
    else if (cursor.acceptWord('RIGHT')) kind = 'RIGHT';
    else if (cursor.acceptWord('FULL')) kind = 'FULL';
    else if (cursor.isWord('JOIN')) kind = 'INNER';
    else return left;
    if (kind !== 'INNER' && kind !== 'CROSS') cursor.acceptWord('OUTER');
    cursor.expectWord('JOIN');
    const right = parseTablePrimary(grammar);
    const join: TableReference = { type: 'join', kind, left, right };
    if (kind !== 'CROSS') {
      if (cursor.acceptWord('ON')) {
        join.on = grammar.expression();
      } else if (cursor.acceptWord('USING')) {
        cursor.expectSymbol('(');
        const names: string[] = [];
        do names.push(cursor.name('a column name').toLowerCase()); while (cursor.acceptSymbol(','));
        cursor.expectSymbol(')');
        join.using = names;
      } else {
        cursor.fail(`${kind} JOIN needs ON or USING`);
      }
    }
    left = join;
  }
}
