import type { Expression } from '../syntax/sql-syntax.ts';
import type { RelationColumn } from './relation.ts';

/** Keys by expression and by the columns they were taken over (a statement asks for the same ones per group). */
const keys = new WeakMap<Expression, WeakMap<RelationColumn[], string>>();

/**
 * A structural key for an expression, with columns replaced by their position in `columns`: two
 * spellings of one column (`city`, `h.city`) give one key, so GROUP BY and ORDER BY recognise a
 * select item written again.
 */
export function expressionKey(expression: Expression, columns: RelationColumn[]): string {
  let byColumns = keys.get(expression);
  if (!byColumns) {
    byColumns = new WeakMap();
    keys.set(expression, byColumns);
  }
  let key = byColumns.get(columns);
  if (key === undefined) {
    key = JSON.stringify(expression, (_key, value: unknown) => {
      if (value && typeof value === 'object' && (value as { type?: unknown }).type === 'column' && !('body' in value)) {
        const reference = value as { table?: string; name: string };
        const index = columns.findIndex((column) => column.name === reference.name && (reference.table ? column.table === reference.table : !column.hidden));
        return index >= 0 ? { column: index } : value;
      }
      return value;
    });
    byColumns.set(columns, key);
  }
  return key;
}
