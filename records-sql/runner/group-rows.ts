import { sqlFailure } from '../sql-failure.ts';
import type { Expression, SelectCore } from '../syntax/sql-syntax.ts';
import { groupingKey } from '../values/compare-sql-values.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { containsAggregate } from './contains-aggregate.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { SelectedItem } from './expand-select-items.ts';
import { expressionKey } from './expression-key.ts';
import type { QueryRun } from './query-run.ts';
import type { RelationColumn } from './relation.ts';

/** A group holds its rows by reference: one pointer each. */
const bytesPerReference = 8;

/**
 * The groups of a grouped SELECT, each as the context its select items and HAVING are evaluated
 * in. Without GROUP BY there is exactly one group, even over no rows (`SELECT count(*)` is 0).
 */
export function groupRows(
  run: QueryRun,
  core: SelectCore,
  items: SelectedItem[],
  columns: RelationColumn[],
  rows: RuntimeValue[][],
  contextFor: (row: RuntimeValue[]) => EvaluationContext,
): EvaluationContext[] {
  const groupExpressions = groupingExpressions(core, items, columns);
  const keys = groupExpressions.map((expression) => expressionKey(expression, columns));
  const groups = new Map<string, { rows: RuntimeValue[][]; values: RuntimeValue[] }>();
  for (const row of rows) {
    run.budget.work(1);
    const values = groupExpressions.map((expression) => run.evaluate(expression, contextFor(row)));
    const key = values.map(groupingKey).join('\u0001');
    let group = groups.get(key);
    if (!group) {
      run.budget.keptText(key.length);
      run.budget.rows(1, values.length);
      group = { rows: [], values };
      groups.set(key, group);
    }
    run.budget.memory(bytesPerReference);
    group.rows.push(row);
  }
  if (groupExpressions.length === 0 && groups.size === 0) groups.set('', { rows: [], values: [] });
  const emptyRow = columns.map(() => null);
  return [...groups.values()].map((group) => ({ ...contextFor(group.rows[0] ?? emptyRow), group: { rows: group.rows, keys, values: group.values } }));
}

/** GROUP BY's expressions: ALL, positions (`GROUP BY 1`) and select-list aliases resolved. */
function groupingExpressions(core: SelectCore, items: SelectedItem[], columns: RelationColumn[]): Expression[] {
  if (core.groupBy === undefined) return [];
  if (core.groupBy === 'ALL') return items.map((item) => item.expression).filter((expression) => !containsAggregate(expression));
  return core.groupBy.map((expression) => {
    if (expression.type === 'literal' && expression.valueType === 'INTEGER') {
      const item = items[(expression.value as number) - 1];
      return item ? item.expression : sqlFailure(`Binder Error: GROUP BY term out of range - should be between 1 and ${items.length}`);
    }
    if (expression.type === 'column' && !expression.table && !columns.some((column) => column.name === expression.name)) {
      const aliased = items.find((item) => item.alias?.toLowerCase() === expression.name);
      if (aliased) return aliased.expression;
    }
    if (containsAggregate(expression)) sqlFailure('Binder Error: GROUP BY clause cannot contain aggregates!');
    return expression;
  });
}
