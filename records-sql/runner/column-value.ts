import { sqlFailure } from '../sql-failure.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { containsAggregate } from './contains-aggregate.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import { expressionKey } from './expression-key.ts';
import type { ColumnReference, QueryRun } from './query-run.ts';

/**
 * A column's value: from the row that owns it (this query's or an enclosing one's), from the group
 * when it is grouped by, or through a select-list alias. A bare column of a grouped query that is
 * not grouped by fails with DuckDB's message.
 */
export function columnValue(run: QueryRun, reference: ColumnReference, context: EvaluationContext): RuntimeValue {
  const binding = run.resolveColumn(reference, context);
  if ('alias' in binding) {
    if (containsAggregate(binding.alias) && !context.group) sqlFailure(`Binder Error: alias "${reference.name}" names an aggregate and cannot be used here`);
    return run.evaluate(binding.alias, { ...context, aliases: undefined });
  }
  const owner = binding.context;
  if (owner.group) {
    const index = owner.group.keys.indexOf(expressionKey(reference, owner.columns));
    if (index >= 0) return owner.group.values[index]!;
    if (owner === context) {
      sqlFailure(`Binder Error: column "${reference.name}" must appear in the GROUP BY clause or must be part of an aggregate function. Either add it to the GROUP BY list, or use "ANY_VALUE(${reference.name})" if the exact value of "${reference.name}" is not important.`);
    }
  }
  return owner.row[binding.index]!;
}
