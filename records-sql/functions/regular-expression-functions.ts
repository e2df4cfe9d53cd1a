import { RegularExpression } from '../regular-expressions/regular-expression.ts';
import { readRegularExpressionOptions } from '../regular-expressions/regular-expression-options.ts';
import { replaceMatches } from '../regular-expressions/replace-matches.ts';
import { sqlFailure } from '../sql-failure.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { numberArgument, textArgument } from './function-arguments.ts';
import { fixedType, type ScalarFunctionList } from './scalar-function.ts';

/** The pattern argument with the options argument, read as DuckDB reads them. */
function compile(pattern: RuntimeValue, options: RuntimeValue | undefined, functionName: string, anchored = false) {
  const read = readRegularExpressionOptions(options === undefined ? undefined : textArgument(options, 'VARCHAR'), functionName);
  return { expression: RegularExpression.compile(textArgument(pattern, 'VARCHAR'), read, anchored), global: read.global };
}

/**
 * regexp_matches, regexp_full_match, regexp_replace and regexp_extract with RE2's syntax and
 * DuckDB's options, matched in linear time (see parseRegularExpression).
 */
export const regularExpressionFunctions: ScalarFunctionList = [
  [['regexp_matches'], {
    minimumArguments: 2, maximumArguments: 3, returnType: fixedType('BOOLEAN'),
    evaluate: ([value, pattern, options], types, budget) => compile(pattern!, options, 'regexp_matches').expression.search(textArgument(value!, types[0]!), 0, budget) !== null,
  }],
  [['regexp_full_match'], {
    minimumArguments: 2, maximumArguments: 3, returnType: fixedType('BOOLEAN'),
    evaluate: ([value, pattern, options], types, budget) => compile(pattern!, options, 'regexp_full_match', true).expression.search(textArgument(value!, types[0]!), 0, budget) !== null,
  }],
  [['regexp_replace'], {
    minimumArguments: 3, maximumArguments: 4, returnType: fixedType('VARCHAR'),
    evaluate: ([value, pattern, replacement, options], types, budget) => {
      const { expression, global } = compile(pattern!, options, 'regexp_replace');
      return replaceMatches(textArgument(value!, types[0]!), expression, textArgument(replacement!, 'VARCHAR'), global, budget);
    },
  }],
  [['regexp_extract'], {
    minimumArguments: 2, maximumArguments: 4, returnType: fixedType('VARCHAR'),
    evaluate: ([value, pattern, group, options], types, budget) => {
      const index = group === undefined ? 0 : numberArgument(group, 'regexp_extract');
      if (!Number.isInteger(index) || index < 0 || index > 9) sqlFailure('Invalid Input Error: Group index must be between 0 and 9!');
      const { expression } = compile(pattern!, options, 'regexp_extract');
      const text = textArgument(value!, types[0]!);
      const slots = expression.search(text, 0, budget);
      const start = slots?.[2 * index] ?? -1;
      return start < 0 ? '' : text.slice(start, slots![2 * index + 1]);
    },
  }],
];
