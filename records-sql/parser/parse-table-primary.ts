import type { Expression, TableReference } from '../syntax/sql-syntax.ts';
import { parseAlias } from './parse-select-item.ts';
import type { SqlGrammar } from './sql-grammar.ts';
import type { TokenCursor } from './token-cursor.ts';

/** One FROM item: a table, a table function call, a subquery, or a parenthesized FROM list. */
export function parseTablePrimary(grammar: SqlGrammar): TableReference {
  const { cursor } = grammar;
  if (cursor.acceptSymbol('(')) {
    if (cursor.isWord('SELECT') || cursor.isWord('WITH') || cursor.isSymbol('(')) {
      const query = grammar.query();
      cursor.expectSymbol(')');
      return { type: 'subquery', query, alias: parseTableAlias(cursor) };
    }
    const inner = grammar.fromList();
    cursor.expectSymbol(')');
    return inner;
  }
  if (cursor.acceptWord('LATERAL')) cursor.unsupported('LATERAL');
  const token = cursor.peek();
  if (token.kind === 'string') {
    // DuckDB reads a file named in FROM; reported as a table function so the guard refuses it.
    cursor.index += 1;
    return { type: 'tableFunction', name: 'read_file', args: [{ type: 'literal', value: token.text, valueType: 'VARCHAR' }], alias: parseTableAlias(cursor) };
  }
  const parts = [cursor.name('a table name')];
  while (cursor.acceptSymbol('.')) parts.push(cursor.name('a table name'));
  if (cursor.acceptSymbol('(')) {
    const args: Expression[] = [];
    if (!cursor.isSymbol(')')) {
      do args.push(grammar.expression()); while (cursor.acceptSymbol(','));
    }
    cursor.expectSymbol(')');
    return { type: 'tableFunction', name: parts.join('.').toLowerCase(), args, alias: parseTableAlias(cursor) };
  }
  // `main.hotels` is `hotels`; any other qualifier stays and is refused by the guard.
  const qualified = parts.length === 2 && parts[0]!.toLowerCase() === 'main' ? [parts[1]!] : parts;
  return { type: 'table', name: qualified.join('.').toLowerCase(), alias: parseTableAlias(cursor) };
}

function parseTableAlias(cursor: TokenCursor): string | undefined {
  const alias = parseAlias(cursor);
  if (alias !== undefined && cursor.isSymbol('(')) cursor.unsupported('column aliases on a table');
  if (cursor.isWord('TABLESAMPLE') || (cursor.isWord('USING') && cursor.upperAhead(1) === 'SAMPLE')) cursor.unsupported('sampling');
  return alias?.toLowerCase();
}
