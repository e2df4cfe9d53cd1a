import type { Expression } from './sql-syntax.ts';

/** Calls DuckDB will not fold: aggregates read rows, and these give another value on each call or day. */
const notFoldable = new Set(['current_date', 'today', 'now', 'random', 'uuid', 'gen_random_uuid']);

/**
 * Whether DuckDB can fold `expression` to one value while it plans the query (IsFoldable): no
 * column, subquery or aggregate anywhere in it, and no function whose value changes call to call.
 * `isAggregate` tells an aggregate call from a scalar one (the function tables live elsewhere).
 */
export function isConstantExpression(expression: Expression, isAggregate: (name: string) => boolean = () => false): boolean {
  switch (expression.type) {
    case 'literal': case 'dateLiteral': return true;
    case 'column': case 'subquery': case 'exists': case 'inSubquery': return false;
    case 'function':
      if (notFoldable.has(expression.name) || expression.star || isAggregate(expression.name)) return false;
      break;
    default: break;
  }
  for (const value of Object.values(expression)) {
    const children = Array.isArray(value) ? value : [value];
    for (const child of children) {
      if (child === null || typeof child !== 'object') continue;
      if ('when' in child && 'then' in child) {
        if (!isConstantExpression(child.when, isAggregate) || !isConstantExpression(child.then, isAggregate)) return false;
      } else if (typeof (child as { type?: unknown }).type === 'string' && !('body' in child)) {
        if (!isConstantExpression(child as Expression, isAggregate)) return false;
      }
    }
  }
  return true;
}
