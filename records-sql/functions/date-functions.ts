import { sqlFailure } from '../sql-failure.ts';
import { daysInMonth, SqlDate, SqlInterval } from '../values/sql-runtime-value.ts';
import { addInterval, dateTruncate } from './date-arithmetic.ts';
import { dateDifference, dateSubtract } from './date-difference.ts';
import { datePart, dayOfWeek } from './date-part.ts';
import { dayNames, formatDate, monthNames } from './format-date.ts';
import { dateArgument, numberArgument, textArgument } from './function-arguments.ts';
import { fixedType, type ScalarFunction, type ScalarFunctionList } from './scalar-function.ts';

const datePartFunction = (part: string): ScalarFunction => ({
  minimumArguments: 1, maximumArguments: 1, returnType: fixedType('INTEGER'), evaluate: ([value]) => datePart(part, dateArgument(value!, part)),
});

/** Functions over DATE values: parts, differences, truncation, construction and formatting. */
export const dateFunctions: ScalarFunctionList = [
  ...['year', 'month', 'day', 'quarter', 'week', 'dayofweek', 'isodow', 'dayofyear', 'decade', 'century', 'isoyear'].map((part): [string[], ScalarFunction] => [[part], datePartFunction(part)]),
  [['dayofmonth'], datePartFunction('day')],
  [['weekofyear'], datePartFunction('week')],
  [['weekday'], datePartFunction('dayofweek')],
  [['date_part', 'datepart'], {
    minimumArguments: 2, maximumArguments: 2, returnType: fixedType('INTEGER'),
    evaluate: ([part, value]) => datePart(textArgument(part!, 'VARCHAR'), dateArgument(value!, 'date_part')),
  }],
  [['date_diff', 'datediff'], {
    minimumArguments: 3, maximumArguments: 3, returnType: fixedType('INTEGER'),
    evaluate: ([part, start, end]) => dateDifference(textArgument(part!, 'VARCHAR'), dateArgument(start!, 'date_diff'), dateArgument(end!, 'date_diff')),
  }],
  [['date_sub', 'datesub'], {
    minimumArguments: 3, maximumArguments: 3, returnType: fixedType('INTEGER'),
    evaluate: ([part, start, end]) => dateSubtract(textArgument(part!, 'VARCHAR'), dateArgument(start!, 'date_sub'), dateArgument(end!, 'date_sub')),
  }],
  [['date_trunc', 'datetrunc'], {
    minimumArguments: 2, maximumArguments: 2, returnType: fixedType('DATE'),
    evaluate: ([part, value]) => dateTruncate(textArgument(part!, 'VARCHAR'), dateArgument(value!, 'date_trunc')),
  }],
  [['date_add'], {
    minimumArguments: 2, maximumArguments: 2, returnType: fixedType('DATE'),
    evaluate: ([value, interval]) => {
      if (!(interval instanceof SqlInterval)) sqlFailure('Binder Error: date_add takes a DATE and an INTERVAL');
      return addInterval(dateArgument(value!, 'date_add'), interval as SqlInterval, 1);
    },
  }],
  [['make_date'], {
    minimumArguments: 3, maximumArguments: 3, returnType: fixedType('DATE'),
    evaluate: ([year, month, day]) => {
      const [y, m, d] = [numberArgument(year!, 'make_date'), numberArgument(month!, 'make_date'), numberArgument(day!, 'make_date')];
      if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) sqlFailure(`Conversion Error: Date out of range: ${y}-${m}-${d}`);
      return SqlDate.fromParts(y, m, d);
    },
  }],
  [['last_day'], {
    minimumArguments: 1, maximumArguments: 1, returnType: fixedType('DATE'),
    evaluate: ([value]) => {
      const { year, month } = dateArgument(value!, 'last_day').parts;
      return SqlDate.fromParts(year, month, daysInMonth(year, month));
    },
  }],
  [['strftime'], {
    minimumArguments: 2, maximumArguments: 2, returnType: fixedType('VARCHAR'),
    evaluate: ([value, pattern]) => formatDate(dateArgument(value!, 'strftime'), textArgument(pattern!, 'VARCHAR')),
  }],
  [['monthname'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('VARCHAR'), evaluate: ([value]) => monthNames[dateArgument(value!, 'monthname').parts.month - 1]! }],
  [['dayname'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('VARCHAR'), evaluate: ([value]) => dayNames[dayOfWeek(dateArgument(value!, 'dayname'))]! }],
  [['current_date', 'today'], {
    minimumArguments: 0, maximumArguments: 0, returnType: fixedType('DATE'),
    evaluate: () => new SqlDate(Math.floor(Date.now() / 86_400_000)),
  }],
];
