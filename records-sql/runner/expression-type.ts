import { findAggregateFunction } from '../functions/aggregate-functions.ts';
import { findScalarFunction } from '../functions/scalar-functions.ts';
import type { BinaryOperator, Expression, SqlType } from '../syntax/sql-syntax.ts';
import { commonNumericType } from '../values/common-numeric-type.ts';
import { decimalResultType, type DecimalOperator } from '../values/decimal-arithmetic.ts';
import { decimalParts, decimalType } from '../values/decimal-type.ts';
import { integerDigits } from '../syntax/integer-digits.ts';
import { aggregateName } from './contains-aggregate.ts';
import type { EvaluationContext } from './evaluation-context.ts';
import type { QueryRun } from './query-run.ts';

/**
 * The DuckDB type of an expression, worked out from its parts; 'UNKNOWN' where the engine cannot
 * tell (a column it cannot bind yet, a subquery that fails), which prints values by their own kind.
 */
export function expressionType(run: QueryRun, expression: Expression, context: EvaluationContext): SqlType {
  switch (expression.type) {
    case 'literal': return expression.valueType;
    case 'dateLiteral': return 'DATE';
    case 'intervalLiteral': return 'INTERVAL';
    case 'column': {
      const binding = quietly(() => run.resolveColumn(expression, context));
      if (!binding) return 'UNKNOWN';
      if ('alias' in binding) return run.typeOf(binding.alias, { ...context, aliases: undefined });
      return binding.context.columns[binding.index]!.type;
    }
    case 'unary': return expression.operator === 'NOT' ? 'BOOLEAN' : run.typeOf(expression.operand, context);
    case 'binary': {
      const { operator } = expression;
      if (['=', '<>', '<', '<=', '>', '>=', 'AND', 'OR'].includes(operator)) return 'BOOLEAN';
      if (operator === '||') return 'VARCHAR';
      const left = run.typeOf(expression.left, context);
      const right = run.typeOf(expression.right, context);
      if (left === 'DATE' || right === 'DATE') return left === 'DATE' && right === 'DATE' ? 'INTEGER' : 'DATE';
      if (operator === '/') return 'DOUBLE';
      if (decimalParts(left) || decimalParts(right)) return decimalArithmeticType(operator, expression, left, right);
      if (operator === '//' && (left === 'DOUBLE' || right === 'DOUBLE')) return 'DOUBLE';
      if (left === 'DOUBLE' || right === 'DOUBLE') return 'DOUBLE';
      if (left === 'INTEGER' && right === 'INTEGER') return 'INTEGER';
      return 'UNKNOWN';
    }
    case 'isNull': case 'isBoolean': case 'isDistinctFrom': case 'between': case 'inList': case 'inSubquery': case 'like': case 'exists':
      return 'BOOLEAN';
    case 'case': {
      const results = [...expression.branches.map((branch) => branch.then), ...(expression.otherwise ? [expression.otherwise] : [])];
      const common = commonNumericType(results.map((result) => run.typeOf(result, context)), results);
      if (common) return common;
      for (const branch of expression.branches) {
        const type = run.typeOf(branch.then, context);
        if (type !== 'NULL') return type;
      }
      return expression.otherwise ? run.typeOf(expression.otherwise, context) : 'NULL';
    }
    case 'cast': return expression.targetType;
    case 'function': {
      const argumentTypes = expression.args.map((argument) => run.typeOf(argument, context));
      const aggregate = findAggregateFunction(aggregateName(expression));
      if (aggregate) return aggregate.returnType(argumentTypes);
      return findScalarFunction(expression.name)?.returnType(argumentTypes, expression.args) ?? 'UNKNOWN';
    }
    case 'subquery': return quietly(() => run.runSubquery(expression.query, context).columns[0]?.type) ?? 'UNKNOWN';
  }
}

/** The type of arithmetic with a DECIMAL side, as `arithmeticWithDecimal` computes it. */
function decimalArithmeticType(operator: BinaryOperator, expression: Extract<Expression, { type: 'binary' }>, left: SqlType, right: SqlType): SqlType {
  if (operator === '//' || [left, right].some((type) => type === 'DOUBLE' || type === 'VARCHAR')) return 'DOUBLE';
  const partsOf = (type: SqlType, side: Expression) => {
    if (type !== 'INTEGER') return decimalParts(type);
    return { width: integerDigits(side), scale: 0 };
  };
  const [leftParts, rightParts] = [partsOf(left, expression.left), partsOf(right, expression.right)];
  if (!leftParts || !rightParts || !['+', '-', '*', '%'].includes(operator)) return 'UNKNOWN';
  const result = quietly(() => decimalResultType(operator as DecimalOperator, leftParts, rightParts));
  return result === undefined ? 'UNKNOWN' : result === 'DOUBLE' ? 'DOUBLE' : decimalType(result.parts.width, result.parts.scale);
}

function quietly<T>(step: () => T): T | undefined {
  try {
    return step();
  } catch {
    return undefined;
  }
}

