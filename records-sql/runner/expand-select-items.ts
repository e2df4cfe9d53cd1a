import { sqlFailure } from '../sql-failure.ts';
import type { Expression, SelectCore } from '../syntax/sql-syntax.ts';
import type { RelationColumn } from './relation.ts';

export interface SelectedItem {
  expression: Expression;
  /** The output column's name, as DuckDB names it (the alias, the column, or the text written). */
  name: string;
  alias?: string;
}

/** The select list with `*` and `t.*` expanded to the columns they stand for. */
export function expandSelectItems(core: SelectCore, columns: RelationColumn[]): SelectedItem[] {
  const items: SelectedItem[] = [];
  for (const item of core.items) {
    if (item.type === 'star') {
      const chosen = columns.filter((column) => !column.hidden && (item.table === undefined || column.table === item.table));
      if (item.table !== undefined && chosen.length === 0) sqlFailure(`Binder Error: Referenced table "${item.table}" not found!`);
      for (const column of chosen) items.push({ expression: { type: 'column', table: column.table, name: column.name }, name: column.name });
      continue;
    }
    const expression = item.expression;
    const name = item.alias
      ?? (expression.type === 'column' ? expression.name
        : expression.type === 'function' && expression.name === 'count' && expression.star ? 'count_star()' : item.text);
    items.push({ expression, name, alias: item.alias });
  }
  return items;
}
