import { compareSqlValues } from '../values/compare-sql-values.ts';
import { typeOfFirst, type ScalarFunctionList } from './scalar-function.ts';

/** coalesce() and nullif(): the functions that see NULL arguments. */
export const nullFunctions: ScalarFunctionList = [
  [['coalesce', 'ifnull'], {
    minimumArguments: 1, maximumArguments: Infinity, seesNulls: true, returnType: (types) => types.find((type) => type !== 'NULL') ?? 'NULL',
    evaluate: (args) => args.find((value) => value !== null) ?? null,
  }],
  [['nullif'], {
    minimumArguments: 2, maximumArguments: 2, seesNulls: true, returnType: typeOfFirst,
    evaluate: ([left, right]) => (left !== null && right !== null && compareSqlValues(left!, right!) === 0 ? null : left!),
  }],
];
