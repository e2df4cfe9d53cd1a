import { sqlFailure } from '../sql-failure.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { ColumnBinding, ColumnReference, QueryRun } from './query-run.ts';

/**
 * A reference found among its own query's columns, by the columns it was found in: every row of a
 * scan or a join has the same columns, so the search is done once (and such a binding marks no
 * subquery as correlated).
 */
const ownColumns = new WeakMap<ColumnReference, { columns: EvaluationContext['columns']; index: number }>();

/**
 * Binds a column name: the innermost query that has it wins (a correlated reference marks the
 * subqueries in between), then this query's select-list aliases; two matches in one query are
 * ambiguous.
 */
export function resolveColumn(run: QueryRun, reference: ColumnReference, context: EvaluationContext): ColumnBinding {
  const known = ownColumns.get(reference);
  if (known && known.columns === context.columns) return { context, index: known.index };
  for (let scope: EvaluationContext | undefined = context; scope; scope = scope.outer) {
    const matches: number[] = [];
    scope.columns.forEach((column, index) => {
      if (column.name !== reference.name) return;
      if (reference.table ? column.table === reference.table : !column.hidden) matches.push(index);
    });
    if (matches.length > 1) {
      const columns = scope.columns;
      const qualifiers = matches.map((index) => `"${columns[index]!.table ?? '?'}.${reference.name}"`).join(' or ');
      sqlFailure(`Binder Error: Ambiguous reference to column name "${reference.name}" (use: ${qualifiers})`);
    }
    if (matches.length === 1) {
      run.markCorrelated(scope.level);
      if (scope === context) ownColumns.set(reference, { columns: scope.columns, index: matches[0]! });
      return { context: scope, index: matches[0]! };
    }
    const alias = scope === context && !reference.table ? scope.aliases?.get(reference.name) : undefined;
    if (alias) return { alias };
  }
  const candidates = context.columns.filter((column) => !column.hidden).map((column) => `"${column.name}"`).join(', ');
  const name = reference.table ? `${reference.table}.${reference.name}` : reference.name;
  return sqlFailure(`Binder Error: Referenced column "${name}" not found in FROM clause!${candidates ? ` Candidate bindings: ${candidates}` : ''}`);
}
