import { sqlFailure } from '../sql-failure.ts';
import type { TableReference } from '../syntax/sql-syntax.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';
import type { Relation } from './relation.ts';

/**
 * `range(stop)`, `range(start, stop[, step])` and `generate_series` (which includes `stop`): the
 * only table functions there are. The arguments are evaluated in `context` (no row of their own).
 */
export function rangeTableFunction(run: QueryRun, reference: Extract<TableReference, { type: 'tableFunction' }>, context: EvaluationContext): Relation {
  if (reference.name !== 'range' && reference.name !== 'generate_series') {
    sqlFailure(`Catalog Error: Table Function with name ${reference.name} does not exist!`);
  }
  const args = reference.args.map((argument) => {
    const value = run.evaluate(argument, context);
    if (value instanceof SqlDecimal) sqlFailure(`Binder Error: No function matches the given name and argument types '${reference.name}(${value.sqlType})'; it takes BIGINT bounds`);
    return Number(value);
  });
  const [start, stop, step] = args.length === 1 ? [0, args[0]!, 1] : [args[0]!, args[1]!, args[2] ?? 1];
  const inclusive = reference.name === 'generate_series';
  const rows: RuntimeValue[][] = [];
  if (step === 0) sqlFailure('Invalid Input Error: interval cannot be 0!');
  for (let value = start; step > 0 ? (inclusive ? value <= stop : value < stop) : (inclusive ? value >= stop : value > stop); value += step) {
    run.budget.work(1);
    run.budget.rows(1, 1);
    rows.push([value]);
  }
  return { columns: [{ name: reference.name, type: 'INTEGER', table: reference.alias ?? reference.name }], rows };
}
