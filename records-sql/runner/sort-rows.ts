import { sqlFailure } from '../sql-failure.ts';
import type { OrderItem } from '../syntax/sql-syntax.ts';
import { compareSqlValues } from '../values/compare-sql-values.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { expressionKey } from './expression-key.ts';
import type { OutputRow, ProducedRows } from './produced-rows.ts';
import type { QueryRun } from './query-run.ts';

/** ORDER BY: NULLs last unless NULLS FIRST, ties kept in their order (a stable sort). */
export function sortRows(run: QueryRun, rows: OutputRow[], orderBy: OrderItem[], produced: ProducedRows): OutputRow[] {
  run.budget.rows(rows.length, orderBy.length + 2);
  run.budget.work(rows.length * Math.ceil(Math.log2(rows.length + 1)));
  const keyed = rows.map((row, index) => ({ row, index, keys: orderBy.map((item) => orderValue(run, item, row, produced)) }));
  keyed.sort((left, right) => {
    for (const [position, item] of orderBy.entries()) {
      const a = left.keys[position]!;
      const b = right.keys[position]!;
      if (a === null || b === null) {
        if (a === b) continue;
        return (a === null ? 1 : -1) * (item.nullsFirst ? -1 : 1);
      }
      const order = compareSqlValues(a, b);
      if (order !== 0) return item.descending ? -order : order;
    }
    return left.index - right.index;
  });
  return keyed.map((entry) => entry.row);
}

/**
 * The value a row sorts by: a position (`ORDER BY 2`), an output column's name, a select item
 * written again, or any expression over the source row (not after a set operation).
 */
function orderValue(run: QueryRun, item: OrderItem, row: OutputRow, produced: ProducedRows): RuntimeValue {
  const expression = item.expression;
  if (expression.type === 'literal' && expression.valueType === 'INTEGER') {
    const position = (expression.value as number) - 1;
    if (position < 0 || position >= produced.columns.length) sqlFailure(`Binder Error: ORDER term out of range - should be between 1 and ${produced.columns.length}`);
    return row.values[position]!;
  }
  if (expression.type === 'column' && !expression.table) {
    const named = produced.columns.findIndex((column) => column.name.toLowerCase() === expression.name);
    if (named >= 0) return row.values[named]!;
  }
  const source = row.source;
  if (produced.expressions && source) {
    const key = expressionKey(expression, source.columns);
    const same = produced.expressions.findIndex((candidate) => expressionKey(candidate, source.columns) === key);
    if (same >= 0) return row.values[same]!;
    return run.evaluate(expression, source);
  }
  return sqlFailure('Binder Error: ORDER BY of a set operation must name one of its result columns');
}
