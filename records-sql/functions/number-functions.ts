import type { Expression, SqlType } from '../syntax/sql-syntax.ts';
import { isConstantExpression } from '../syntax/is-constant-expression.ts';
import { integerDigits } from '../syntax/integer-digits.ts';
import { unsupportedFeature } from '../unsupported-feature.ts';
import { arithmeticWithDecimal } from '../values/arithmetic-with-decimal.ts';
import { roundHalfAwayFromZero } from '../values/cast-to-decimal.ts';
import { commonNumericType, toCommonNumericType } from '../values/common-numeric-type.ts';
import { compareSqlValues } from '../values/compare-sql-values.ts';
import { decimalRounding, nonConstantPlaces } from '../values/decimal-rounding.ts';
import { decimalParts, decimalType } from '../values/decimal-type.ts';
import { doublePowerOfTen } from '../values/powers-of-ten.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { integerFits } from '../values/integer-arithmetic.ts';
import { findAggregateFunction } from './aggregate-functions.ts';
import { integerArgument, numberArgument } from './function-arguments.ts';
import { fixedType, typeOfFirst, type ScalarFunction, type ScalarFunctionList } from './scalar-function.ts';

const numericResult = (types: SqlType[]) => (types.some((type) => type === 'DOUBLE') ? 'DOUBLE' : types.every((type) => type === 'INTEGER') ? 'INTEGER' : 'UNKNOWN');

const isAggregate = (name: string) => findAggregateFunction(name) !== undefined;

/** round(x, places) of a DOUBLE as DuckDB computes it (RoundOperatorPrecision), in double arithmetic. */
function roundDouble(value: number, places: number): number {
  if (places < 0) {
    const modifier = doublePowerOfTen(-places);
    const rounded = roundHalfAwayFromZero(value / modifier) * modifier;
    return Number.isFinite(rounded) ? rounded : 0;
  }
  const modifier = doublePowerOfTen(places);
  const rounded = roundHalfAwayFromZero(value * modifier) / modifier;
  return Number.isFinite(rounded) ? rounded : value;
}

/** round(x, places) of an integer (RoundIntegerOperator): unchanged for places ≥ 0, to tens, hundreds… below. */
function roundInteger(value: number, places: number): number {
  if (places >= 0) return value;
  if (places <= -19) return 0;
  const power = doublePowerOfTen(-places);
  const rounded = Math.trunc((value + (value < 0 ? -1 : 1) * Math.trunc(power / 2)) / power) * power;
  return rounded === 0 ? 0 : rounded;
}

/** `places` of round(DECIMAL, places) when it is a literal, for the result's type. */
function literalPlaces(expression: Expression | undefined): number | undefined {
  return expression?.type === 'literal' && typeof expression.value === 'number' ? expression.value : undefined;
}

/**
 * round() of a NULL is NULL, but for DuckDB's quirk: round(DECIMAL(w,s), places) with places at or
 * below -(w - s) is a constant 0 for every row, NULL ones too (DecimalRoundNegativePrecisionOperator),
 * unless the NULL is a constant, which DuckDB folds to NULL before the function runs.
 */
function roundOfNull(args: RuntimeValue[], types: SqlType[], expressions: Expression[]): RuntimeValue {
  const decimal = decimalParts(types[0] ?? 'UNKNOWN');
  if (!decimal || args.length === 1 || (args[0] === null && isConstantExpression(expressions[0]!, isAggregate))) return null;
  if (args[1] === null || !isConstantExpression(expressions[1]!, isAggregate)) return nonConstantPlaces('round');
  const places = integerArgument(args, types, 1, 'round');
  return places <= -(decimal.width - decimal.scale) ? new SqlDecimal(BigInt(0), decimal.width, 0) : null;
}

/**
 * ceil, floor and trunc: a DECIMAL keeps its width at scale 0; an integer stays one for trunc but
 * is a DOUBLE for ceil and floor, which DuckDB declares for DOUBLE and DECIMAL only (ceil(3) prints "3.0").
 */
function wholePart(name: 'ceil' | 'floor' | 'trunc', ofNumber: (value: number) => number): ScalarFunction {
  return {
    minimumArguments: 1, maximumArguments: 1,
    returnType: (types) => {
      const decimal = decimalParts(types[0] ?? 'UNKNOWN');
      if (decimal) return decimalType(decimal.width, 0);
      return types[0] === 'INTEGER' && name !== 'trunc' ? 'DOUBLE' : typeOfFirst(types);
    },
    evaluate: ([value]) => (value instanceof SqlDecimal ? decimalRounding[name](value) : ofNumber(numberArgument(value!, name))),
  };
}

/** greatest() and least(): NULLs are skipped, and the answer takes the arguments' common type, as in DuckDB. */
function extremeOf(pick: 1 | -1): ScalarFunction {
  return {
    minimumArguments: 1, maximumArguments: Infinity, seesNulls: true,
    returnType: (types, expressions) => commonNumericType(types, expressions) ?? types.find((type) => type !== 'NULL') ?? 'NULL',
    evaluate: (args, types, _budget, expressions) => {
      const common = commonNumericType(types, expressions);
      let best: RuntimeValue = null;
      for (const argument of args) {
        const value = toCommonNumericType(argument, common);
        if (value !== null && (best === null || compareSqlValues(value, best) * pick > 0)) best = value;
      }
      return best;
    },
  };
}

/** Arithmetic functions over numbers; a DECIMAL stays exact where DuckDB keeps it a DECIMAL. */
export const numberFunctions: ScalarFunctionList = [
  [['abs'], {
    minimumArguments: 1, maximumArguments: 1, returnType: typeOfFirst,
    evaluate: ([value]) => (value instanceof SqlDecimal ? new SqlDecimal(value.unscaled < BigInt(0) ? -value.unscaled : value.unscaled, value.width, value.scale) : Math.abs(numberArgument(value!, 'abs'))),
  }],
  [['ceil', 'ceiling'], wholePart('ceil', Math.ceil)],
  [['floor'], wholePart('floor', Math.floor)],
  [['trunc'], wholePart('trunc', Math.trunc)],
  [['round'], {
    minimumArguments: 1,
    maximumArguments: 2,
    seesNulls: true,
    returnType: (types, expressions) => {
      const decimal = decimalParts(types[0] ?? 'UNKNOWN');
      if (!decimal) return typeOfFirst(types);
      if (types.length === 1) return decimalType(decimal.width, 0);
      const places = literalPlaces(expressions[1]);
      return places === undefined ? 'UNKNOWN' : decimalType(decimal.width, places < 0 ? 0 : Math.min(places, decimal.scale));
    },
    evaluate: (args, types, _budget, expressions) => {
      const value = args[0]!;
      if (value === null || args[1] === null) return roundOfNull(args, types, expressions);
      if (args.length === 1) return value instanceof SqlDecimal ? decimalRounding.round(value) : types[0] === 'INTEGER' ? value : roundHalfAwayFromZero(numberArgument(value, 'round'));
      const places = integerArgument(args, types, 1, 'round');
      if (value instanceof SqlDecimal) return isConstantExpression(expressions[1]!, isAggregate) ? decimalRounding.roundTo(value, places) : nonConstantPlaces('round');
      if (types[0] === 'INTEGER' && typeof value === 'number' && Number.isInteger(value)) {
        const rounded = roundInteger(value, places);
        // DuckDB rounds in the integer's own type and wraps past it (round(2147483647, -1) is -2147483646 there).
        if (!integerFits(rounded, integerDigits(expressions[0]))) unsupportedFeature(`round(${value}, ${places}) past the integer type's range (DuckDB wraps around there)`);
        return rounded;
      }
      return roundDouble(numberArgument(value, 'round'), places);
    },
  }],
  [['sqrt'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.sqrt(numberArgument(value!, 'sqrt')) }],
  [['cbrt'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.cbrt(numberArgument(value!, 'cbrt')) }],
  [['power', 'pow'], { minimumArguments: 2, maximumArguments: 2, returnType: fixedType('DOUBLE'), evaluate: ([base, exponent]) => numberArgument(base!, 'power') ** numberArgument(exponent!, 'power') }],
  [['exp'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.exp(numberArgument(value!, 'exp')) }],
  [['ln'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.log(numberArgument(value!, 'ln')) }],
  [['log', 'log10'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.log10(numberArgument(value!, 'log10')) }],
  [['log2'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.log2(numberArgument(value!, 'log2')) }],
  [['sign'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('INTEGER'), evaluate: ([value]) => Math.sign(numberArgument(value!, 'sign')) || 0 }],
  [['pi'], { minimumArguments: 0, maximumArguments: 0, returnType: fixedType('DOUBLE'), evaluate: () => Math.PI }],
  [['mod'], {
    minimumArguments: 2, maximumArguments: 2, returnType: numericResult,
    evaluate: ([left, right], types, _budget, expressions) => {
      if (left instanceof SqlDecimal || right instanceof SqlDecimal) {
        return arithmeticWithDecimal('%', { value: left!, type: types[0]!, expression: expressions[0]! }, { value: right!, type: types[1]!, expression: expressions[1]! });
      }
      const [dividend, divisor] = [numberArgument(left!, 'mod'), numberArgument(right!, 'mod')];
      const double = types.includes('DOUBLE') || !Number.isInteger(dividend) || !Number.isInteger(divisor);
      return divisor === 0 && !double ? null : dividend % divisor;
    },
  }],
  [['greatest'], extremeOf(1)],
  [['least'], extremeOf(-1)],
];
