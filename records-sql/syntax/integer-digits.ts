import type { Expression } from './sql-syntax.ts';

/** The digits of TINYINT, SMALLINT, INTEGER, BIGINT and HUGEINT, and the largest value each holds. */
const integerTypes: Array<[digits: number, maximum: number]> = [[3, 127], [5, 32767], [10, 2147483647], [19, 2 ** 63 - 1], [38, Infinity]];
/** Functions whose integer result DuckDB types TINYINT, and those that keep their argument's type. */
const tinyintFunctions = new Set(['sign']);
const argumentTypedFunctions = new Set(['abs', 'round', 'trunc', 'greatest', 'least', 'coalesce', 'ifnull', 'nullif', 'min', 'max', 'any_value', 'first', 'arbitrary', 'last', 'mode', 'arg_max', 'arg_min', 'argmax', 'argmin', 'max_by', 'min_by']);

function smallestTypeFor(value: number): number {
  return integerTypes.find(([, maximum]) => Math.abs(value) <= maximum)![0];
}

/**
 * How many digits the integer type DuckDB gives `expression` holds: 3 (TINYINT), 5, 10 (INTEGER),
 * 19 (BIGINT) or 38 (HUGEINT). This engine keeps one integer type; DuckDB's shows where it checks
 * for overflow (`1000*1000*1000*1000` overflows INTEGER) and in the width a DECIMAL gives an
 * integer. A literal is an INTEGER while it fits 32 bits (`-2147483648` is minus a BIGINT), and
 * next to an integer of a smaller type that it fits, it takes that type (DuckDB's integer
 * literals do: sign(x) * 100 is a TINYINT); the record columns, counts and lengths are BIGINT.
 */
export function integerDigits(expression: Expression | undefined): number {
  if (!expression) return 19;
  let digits = known.get(expression);
  if (digits === undefined) {
    digits = decide(expression);
    known.set(expression, digits);
  }
  return digits;
}

/** Worked out once per expression: a query asks for each row. */
const known = new WeakMap<Expression, number>();

function decide(expression: Expression): number {
  switch (expression.type) {
    case 'literal': return typeof expression.value === 'number' ? Math.max(10, smallestTypeFor(expression.value)) : 19;
    case 'unary': return integerDigits(expression.operand);
    case 'cast': return expression.integerDigits ?? 19;
    case 'binary': {
      const [left, right] = [integerDigits(expression.left), integerDigits(expression.right)];
      const literal = (side: Expression) => (side.type === 'literal' && typeof side.value === 'number' ? side.value : undefined);
      const [leftLiteral, rightLiteral] = [literal(expression.left), literal(expression.right)];
      if (leftLiteral !== undefined && rightLiteral === undefined && smallestTypeFor(leftLiteral) <= right) return right;
      if (rightLiteral !== undefined && leftLiteral === undefined && smallestTypeFor(rightLiteral) <= left) return left;
      return Math.max(left, right);
    }
    case 'function': {
      if (tinyintFunctions.has(expression.name)) return 3;
      if (expression.name === 'sum') return 38;
      if (argumentTypedFunctions.has(expression.name)) return Math.max(...expression.args.slice(0, expression.name.startsWith('arg') || expression.name.endsWith('_by') ? 1 : undefined).map(integerDigits), 3);
      return 19;
    }
    case 'case': return Math.max(...[...expression.branches.map((branch) => branch.then), ...(expression.otherwise ? [expression.otherwise] : [])].map(integerDigits));
    default: return 19;
  }
}
