import { sqlFailure } from '../sql-failure.ts';
import type { RuntimeValue } from '../values/sql-runtime-value.ts';
import { textArgument } from './function-arguments.ts';
import { fixedType, type ScalarFunctionList } from './scalar-function.ts';

/** A pattern with DuckDB's options: 'i' matches case-insensitively; `.` always matches a newline. */
function regularExpression(pattern: string, options: RuntimeValue, global = false): RegExp {
  const flags = `${global ? 'g' : ''}${options !== undefined && options !== null && String(options).includes('i') ? 'i' : ''}s`;
  try {
    return new RegExp(pattern, flags);
  } catch {
    return sqlFailure(`Invalid Input Error: invalid regular expression "${pattern}"`);
  }
}

/** regexp_matches, regexp_full_match, regexp_replace and regexp_extract. */
export const regularExpressionFunctions: ScalarFunctionList = [
  [['regexp_matches'], {
    minimumArguments: 2, maximumArguments: 3, returnType: fixedType('BOOLEAN'),
    evaluate: ([value, pattern, options], types) => regularExpression(textArgument(pattern!, 'VARCHAR'), options ?? null).test(textArgument(value!, types[0]!)),
  }],
  [['regexp_full_match'], {
    minimumArguments: 2, maximumArguments: 3, returnType: fixedType('BOOLEAN'),
    evaluate: ([value, pattern, options], types) => regularExpression(`^(?:${textArgument(pattern!, 'VARCHAR')})$`, options ?? null).test(textArgument(value!, types[0]!)),
  }],
  [['regexp_replace'], {
    minimumArguments: 3, maximumArguments: 4, returnType: fixedType('VARCHAR'),
    evaluate: ([value, pattern, replacement, options], types) => {
      const global = options !== undefined && options !== null && String(options).includes('g');
      const expression = regularExpression(textArgument(pattern!, 'VARCHAR'), options ?? null, global);
      return textArgument(value!, types[0]!).replace(expression, textArgument(replacement!, 'VARCHAR').replace(/\\(\d)/g, '$$$1'));
    },
  }],
  [['regexp_extract'], {
    minimumArguments: 2, maximumArguments: 3, returnType: fixedType('VARCHAR'),
    evaluate: ([value, pattern, group], types) => {
      const match = regularExpression(textArgument(pattern!, 'VARCHAR'), null).exec(textArgument(value!, types[0]!));
      return match?.[group === undefined ? 0 : Number(group)] ?? '';
    },
  }],
];
