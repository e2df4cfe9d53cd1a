import type { SqlType } from '../syntax/sql-syntax.ts';
import { compareSqlValues } from '../values/compare-sql-values.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { numberArgument } from './function-arguments.ts';
import { fixedType, typeOfFirst, type ScalarFunction, type ScalarFunctionList } from './scalar-function.ts';

const numericResult = (types: SqlType[]) => (types.some((type) => type === 'DOUBLE') ? 'DOUBLE' : types.every((type) => type === 'INTEGER') ? 'INTEGER' : 'UNKNOWN');

/** DuckDB's round(): halves round away from zero. */
function roundHalfAwayFromZero(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

/** greatest() and least(): NULLs are skipped, as in DuckDB. */
function extremeOf(pick: 1 | -1): ScalarFunction {
  return {
    minimumArguments: 1, maximumArguments: Infinity, seesNulls: true, returnType: (types) => types.find((type) => type !== 'NULL') ?? 'NULL',
    evaluate: (args) => {
      let best: RuntimeValue = null;
      for (const value of args) if (value !== null && (best === null || compareSqlValues(value, best) * pick > 0)) best = value;
      return best;
    },
  };
}

/** Arithmetic functions over numbers. */
export const numberFunctions: ScalarFunctionList = [
  [['abs'], { minimumArguments: 1, maximumArguments: 1, returnType: typeOfFirst, evaluate: ([value]) => Math.abs(numberArgument(value!, 'abs')) }],
  [['ceil', 'ceiling'], { minimumArguments: 1, maximumArguments: 1, returnType: typeOfFirst, evaluate: ([value]) => Math.ceil(numberArgument(value!, 'ceil')) }],
  [['floor'], { minimumArguments: 1, maximumArguments: 1, returnType: typeOfFirst, evaluate: ([value]) => Math.floor(numberArgument(value!, 'floor')) }],
  [['trunc'], { minimumArguments: 1, maximumArguments: 1, returnType: typeOfFirst, evaluate: ([value]) => Math.trunc(numberArgument(value!, 'trunc')) }],
  [['round'], {
    minimumArguments: 1,
    maximumArguments: 2,
    returnType: typeOfFirst,
    evaluate: ([value, places]) => {
      const x = numberArgument(value!, 'round');
      const digits = places === undefined ? 0 : Math.trunc(numberArgument(places, 'round'));
      if (digits === 0) return roundHalfAwayFromZero(x);
      const factor = 10 ** digits;
      return roundHalfAwayFromZero(x * factor) / factor;
    },
  }],
  [['sqrt'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.sqrt(numberArgument(value!, 'sqrt')) }],
  [['cbrt'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.cbrt(numberArgument(value!, 'cbrt')) }],
  [['power', 'pow'], { minimumArguments: 2, maximumArguments: 2, returnType: fixedType('DOUBLE'), evaluate: ([base, exponent]) => numberArgument(base!, 'power') ** numberArgument(exponent!, 'power') }],
  [['exp'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.exp(numberArgument(value!, 'exp')) }],
  [['ln'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.log(numberArgument(value!, 'ln')) }],
  [['log', 'log10'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.log10(numberArgument(value!, 'log10')) }],
  [['log2'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DOUBLE'), evaluate: ([value]) => Math.log2(numberArgument(value!, 'log2')) }],
  [['sign'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('INTEGER'), evaluate: ([value]) => Math.sign(numberArgument(value!, 'sign')) }],
  [['pi'], { minimumArguments: 0, maximumArguments: 0, returnType: fixedType('DOUBLE'), evaluate: () => Math.PI }],
  [['mod'], {
    minimumArguments: 2, maximumArguments: 2, returnType: numericResult,
    evaluate: ([left, right]) => {
      const divisor = numberArgument(right!, 'mod');
      return divisor === 0 ? null : numberArgument(left!, 'mod') % divisor;
    },
  }],  [['greatest'], extremeOf(1)],
  [['least'], extremeOf(-1)],
];
