import { commonNumericType, toCommonNumericType } from '../values/common-numeric-type.ts';
import { compareSqlValues } from '../values/compare-sql-values.ts';
import { typeOfFirst, type ScalarFunctionList } from './scalar-function.ts';

/** coalesce() and nullif(): the functions that see NULL arguments. */
export const nullFunctions: ScalarFunctionList = [
  [['coalesce', 'ifnull'], {
    minimumArguments: 1, maximumArguments: Infinity, seesNulls: true, stopsAtFirstValue: true,
    returnType: (types, expressions) => commonNumericType(types, expressions) ?? types.find((type) => type !== 'NULL') ?? 'NULL',
    evaluate: (args, types, _budget, expressions) => toCommonNumericType(args.find((value) => value !== null) ?? null, commonNumericType(types, expressions)),
  }],
  [['nullif'], {
    minimumArguments: 2, maximumArguments: 2, seesNulls: true, returnType: typeOfFirst,
    evaluate: ([left, right]) => (left !== null && right !== null && compareSqlValues(left!, right!) === 0 ? null : left!),
  }],
];
