import { findScalarFunction } from '../functions/scalar-functions.ts';
import { sqlFailure } from '../sql-failure.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { aggregateCall } from './aggregate-call.ts';
import { chargeText } from './charge-text.ts';
import { isAggregateCall, type FunctionCall } from './contains-aggregate.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';

/** A scalar call (NULL in, NULL out unless the function sees NULLs), or an aggregate in a group; text it builds is charged. */
export function callFunction(run: QueryRun, call: FunctionCall, context: EvaluationContext): RuntimeValue {
  if (isAggregateCall(call)) {
    if (!context.group) sqlFailure(`Binder Error: aggregate function ${call.name} is not allowed here (only in SELECT, HAVING and ORDER BY of a grouped query)`);
    return aggregateCall(run, call, context);
  }
  const definition = findScalarFunction(call.name)
    ?? sqlFailure(`Catalog Error: Scalar Function with name ${call.name} does not exist in the spreadsheet SQL engine; use the functions the dialect notes list`);
  if (call.star || call.distinct) sqlFailure(`Binder Error: ${call.name} is not an aggregate function`);
  const count = call.args.length;
  if (count < definition.minimumArguments || count > definition.maximumArguments) {
    sqlFailure(`Binder Error: No function matches the given name and argument types '${call.name}' with ${count} argument(s)`);
  }
  const args: RuntimeValue[] = [];
  let found = false;
  for (const argument of call.args) {
    const value = definition.stopsAtFirstValue && found ? null : run.evaluate(argument, context);
    if (value !== null) found = true;
    args.push(value);
  }
  if (!definition.seesNulls && args.some((value) => value === null)) return null;
  const result = definition.evaluate(args, call.args.map((argument) => run.typeOf(argument, context)), run.budget, call.args);
  if (typeof result === 'string') chargeText(run, result);
  return result;
}
