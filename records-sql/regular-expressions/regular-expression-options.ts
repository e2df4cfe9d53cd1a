import { sqlFailure } from '../sql-failure.ts';
import type { RegularExpressionFlags } from './parse-regular-expression.ts';

export interface RegularExpressionOptions {
  flags: RegularExpressionFlags;
  literal: boolean;
  /** Replace every match, not the first (regexp_replace only). */
  global: boolean;
}

/**
 * DuckDB's options string: 'i' and 'c' case-insensitive or not (the last wins), 's' lets `.` match a
 * newline, 'm', 'n' and 'p' stop it (the default), 'l' takes the pattern literally, 'g' replaces
 * every match.
 */
export function readRegularExpressionOptions(options: string | undefined, functionName: string): RegularExpressionOptions {
  const read: RegularExpressionOptions = { flags: { caseInsensitive: false, dotAll: false, multiLine: false }, literal: false, global: false };
  for (const option of options ?? '') {
    if (option === 'i' || option === 'c') read.flags.caseInsensitive = option === 'i';
    else if (option === 's' || option === 'm' || option === 'n' || option === 'p') read.flags.dotAll = option === 's';
    else if (option === 'l') read.literal = true;
    else if (option === 'g' && functionName === 'regexp_replace') read.global = true;
    else if (option === 'g') sqlFailure("Invalid Input Error: Option 'g' (global replace) is only valid for regexp_replace");
    else sqlFailure(`Invalid Input Error: Unrecognized Regex option ${option}`);
  }
  return read;
}
