import { sqlFailure } from '../sql-failure.ts';
import { formatPrintf } from '../values/format-printf.ts';
import { toFixedHalfEven } from '../values/format-sql-value.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import { textArgument } from './function-arguments.ts';
import { fixedType, type ScalarFunctionList } from './scalar-function.ts';

/** printf() with C-style specifiers and format() with `{}` placeholders. */
export const formatFunctions: ScalarFunctionList = [
  [['printf'], {
    minimumArguments: 1, maximumArguments: Infinity, seesNulls: true, returnType: fixedType('VARCHAR'),
    evaluate: ([format, ...args], types) => (format === null ? null
      : formatPrintf(textArgument(format!, 'VARCHAR'), args.map((value, index) => ({ value: value!, type: types[index + 1] ?? 'UNKNOWN' })))),
  }],
  [['format'], {
    minimumArguments: 1, maximumArguments: Infinity, returnType: fixedType('VARCHAR'),
    evaluate: ([format, ...args], types) => {
      let index = 0;
      return textArgument(format!, 'VARCHAR').replace(/\{(?::([^}]*))?\}/g, (_, spec: string | undefined) => {
        const value = args[index];
        const type = types[index + 1] ?? 'UNKNOWN';
        index += 1;
        if (value === undefined) sqlFailure('Invalid Input Error: not enough arguments for format');
        const precision = spec ? /^\.(\d+)f$/.exec(spec) : null;
        if (precision && Number(precision[1]) > 50) sqlFailure(`Invalid Input Error: the spreadsheet SQL engine prints at most 50 digits after the point (found {:${spec}})`);
        // DuckDB formats a DECIMAL as the DOUBLE it casts to ('{}' of 1.10 is "1.1").
        const [argument, argumentType] = value instanceof SqlDecimal ? [value.toDouble(), 'DOUBLE' as const] : [value, type];
        if (precision && typeof argument === 'number') return toFixedHalfEven(argument, Number(precision[1]));
        if (spec === ',' && typeof argument === 'number') return argument.toLocaleString('en-US');
        return textArgument(argument!, argumentType);
      });
    },
  }],
];
