import { findAggregateFunction } from '../functions/aggregate-functions.ts';
import { sqlFailure } from '../sql-failure.ts';
import { groupingKey } from '../values/compare-sql-values.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { chargeText } from './charge-text.ts';
import { aggregateName, containsAggregate, type FunctionCall } from './contains-aggregate.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';
import { toBoolean } from './three-valued-logic.ts';

/**
 * An aggregate over the rows of the context's group: FILTER first, rows whose first argument is
 * NULL skipped (but for count(*), arg_max/arg_min and *_by), DISTINCT on the whole argument list.
 */
export function aggregateCall(run: QueryRun, call: FunctionCall, context: EvaluationContext): RuntimeValue {
  const name = aggregateName(call);
  const definition = findAggregateFunction(name)!;
  const count = call.args.length;
  if (count < definition.minimumArguments || count > definition.maximumArguments) {
    sqlFailure(`Binder Error: No function matches the given name and argument types '${call.name}' with ${count} argument(s)`);
  }
  if (call.args.some(containsAggregate)) sqlFailure('Binder Error: aggregate function calls cannot be nested');
  const rows: RuntimeValue[][] = [];
  const seen = new Set<string>();
  for (const row of context.group!.rows) {
    run.budget.work(1);
    const rowContext: EvaluationContext = { ...context, row, group: undefined };
    if (call.filter && toBoolean(run.evaluate(call.filter, rowContext)) !== true) continue;
    const args = call.args.map((argument) => run.evaluate(argument, rowContext));
    if (!definition.seesNulls && !name.startsWith('arg') && !name.endsWith('_by') && args[0] === null) continue;
    if (call.distinct) {
      const key = args.map(groupingKey).join('\u0001');
      if (seen.has(key)) continue;
      run.budget.keptText(key.length);
      seen.add(key);
    }
    run.budget.rows(1, args.length);
    rows.push(args);
  }
  const typeContext: EvaluationContext = { ...context, group: undefined };
  const result = definition.aggregate(rows, call.args.map((argument) => run.typeOf(argument, typeContext)));
  if (typeof result === 'string') chargeText(run, result);
  return result;
}
