import { findAggregateFunction } from '../functions/aggregate-functions.ts';
import type { Expression } from '../syntax/sql-syntax.ts';

export type FunctionCall = Extract<Expression, { type: 'function' }>;

/** The aggregate a call names: `count(*)` is `count_star`, which also counts NULL rows. */
export function aggregateName(call: FunctionCall): string {
  return call.name === 'count' && call.star ? 'count_star' : call.name;
}

export function isAggregateCall(expression: Expression): boolean {
  return expression.type === 'function' && findAggregateFunction(aggregateName(expression)) !== undefined;
}

/** Whether an expression calls an aggregate outside any subquery of its own. */
export function containsAggregate(expression: Expression): boolean {
  if (isAggregateCall(expression)) return true;
  if (expression.type === 'subquery' || expression.type === 'exists') return false;
  if (expression.type === 'inSubquery') return containsAggregate(expression.operand);
  for (const value of Object.values(expression)) {
    if (Array.isArray(value)) {
      for (const element of value) {
        if (isExpression(element) && containsAggregate(element)) return true;
        if (element && typeof element === 'object' && 'when' in element && (containsAggregate(element.when) || containsAggregate(element.then))) return true;
      }
    } else if (isExpression(value) && containsAggregate(value)) {
      return true;
    }
  }
  return false;
}

function isExpression(value: unknown): value is Expression {
  return typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string' && !('body' in value);
}
