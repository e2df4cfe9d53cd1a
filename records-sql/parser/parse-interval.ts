import type { Expression } from '../syntax/sql-syntax.ts';
import type { SqlGrammar } from './sql-grammar.ts';
import type { TokenCursor } from './token-cursor.ts';

const intervalUnits = new Map(Object.entries({
  day: 'day', days: 'day', d: 'day', week: 'week', weeks: 'week', w: 'week', month: 'month', months: 'month', mon: 'month', mons: 'month',
  year: 'year', years: 'year', y: 'year', yr: 'year', yrs: 'year', quarter: 'quarter', quarters: 'quarter',
}));

/** After INTERVAL: `'3 days'`, `'3' day`, `3 day` or `(expression) day`. */
export function parseInterval(grammar: SqlGrammar): Expression {
  const { cursor } = grammar;
  const token = cursor.peek();
  if (token.kind === 'string') {
    cursor.index += 1;
    const match = /^\s*(-?[0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]+)?\s*$/.exec(token.text);
    if (!match) return cursor.unsupported(`the interval '${token.text}'`);
    const unit = match[2] ?? cursor.name('an interval unit');
    return { type: 'intervalLiteral', amount: { type: 'literal', value: Number(match[1]), valueType: 'INTEGER' }, unit: intervalUnit(cursor, unit) };
  }
  const amount = token.kind === 'symbol' && token.text === '(' ? grammar.primary() : grammar.unary();
  return { type: 'intervalLiteral', amount, unit: intervalUnit(cursor, cursor.name('an interval unit')) };
}

function intervalUnit(cursor: TokenCursor, unit: string): string {
  return intervalUnits.get(unit.toLowerCase()) ?? cursor.unsupported(`the interval unit ${unit}`);
}
