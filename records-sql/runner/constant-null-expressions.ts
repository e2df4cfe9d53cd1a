import { findScalarFunction } from '../functions/scalar-functions.ts';
import type { Expression, SelectStatement } from '../syntax/sql-syntax.ts';
import { castSqlValue } from '../values/cast-sql-value.ts';

const known = new WeakMap<Expression, boolean>();

/**
 * The expressions of `statement` that DuckDB's binder makes a constant NULL before the query
 * runs: a NULL literal, a cast of one or a TRY_CAST of a literal that fails (the binder casts
 * constants), and any operator or function that gives NULL for a NULL argument
 * (DEFAULT_NULL_HANDLING) with such an argument. DuckDB then never evaluates their other parts,
 * so `TRY_CAST('' AS DECIMAL(10,2)) + <an overflowing product>` is NULL there, not an overflow;
 * the runner answers NULL for these without evaluating them. Most statements have none.
 */
export function constantNullExpressions(statement: SelectStatement): Set<Expression> {
  const found = new Set<Expression>();
  const pending: object[] = [statement];
  while (pending.length) {
    const node = pending.pop()!;
    const expression = node as Expression;
    if ((expression.type === 'binary' || expression.type === 'unary' || expression.type === 'function' || expression.type === 'cast') && bindsToNull(expression)) {
      found.add(expression);
      continue;
    }
    for (const child of Object.values(node)) if (typeof child === 'object' && child !== null) pending.push(child);
  }
  return found;
}

function bindsToNull(expression: Expression): boolean {
  let answer = known.get(expression);
  if (answer === undefined) {
    answer = decide(expression);
    known.set(expression, answer);
  }
  return answer;
}

function decide(expression: Expression): boolean {
  switch (expression.type) {
    case 'literal': return expression.value === null;
    case 'cast': {
      if (bindsToNull(expression.operand)) return true;
      const { operand } = expression;
      if (!expression.tryCast || operand.type !== 'literal') return false;
      try {
        return castSqlValue(operand.value, operand.valueType, expression.targetType, true) === null;
      } catch {
        return false;
      }
    }
    case 'unary': return bindsToNull(expression.operand);
    case 'binary': return expression.operator !== 'AND' && expression.operator !== 'OR' && (bindsToNull(expression.left) || bindsToNull(expression.right));
    case 'function': {
      const definition = findScalarFunction(expression.name);
      return definition !== undefined && !definition.seesNulls && !expression.star && expression.args.some(bindsToNull);
    }
    default: return false;
  }
}
