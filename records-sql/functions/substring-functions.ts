import { sqlFailure } from '../sql-failure.ts';
import { unsupportedFeature } from '../unsupported-feature.ts';
import { integerArgument, textArgument } from './function-arguments.ts';
import { fixedType, type ScalarFunctionList } from './scalar-function.ts';

/** DuckDB takes offsets and lengths within 32 bits (AssertInSupportedRange). */
const supportedUpperBound = 4294967295;
const supportedLowerBound = -supportedUpperBound - 1;

function checkSupportedRange(offset: number, length: number): void {
  if (offset < supportedLowerBound) sqlFailure(`Out of Range Error: Substring offset outside of supported range (< ${supportedLowerBound})`);
  if (offset > supportedUpperBound) sqlFailure(`Out of Range Error: Substring offset outside of supported range (> ${supportedUpperBound})`);
  if (length < supportedLowerBound) sqlFailure(`Out of Range Error: Substring length outside of supported range (< ${supportedLowerBound})`);
  if (length > supportedUpperBound) sqlFailure(`Out of Range Error: Substring length outside of supported range (> ${supportedUpperBound})`);
}

/**
 * DuckDB's SubstringUnicode over characters (code points): a positive offset counts from 1 at the
 * start, 0 stands one before the first character, a negative one counts from the end; a negative
 * length takes the characters before the offset instead of after it.
 */
function substring(characters: string[], offset: number, length: number): string {
  checkSupportedRange(offset, length);
  if (length === 0) return '';
  const count = characters.length;
  const shifted = offset - 1;
  if (offset < 0) {
    // Start and end as the number of characters from the back, as DuckDB scans them.
    const [start, end] = length < 0 ? [-shifted - length, -shifted] : [-shifted, -shifted - length];
    if (end > count) return '';
    return characters.slice(start > count ? 0 : count - start + 1, end <= 0 ? count : count - end + 1).join('');
  }
  const [start, end] = length < 0 ? [Math.max(0, shifted + length), shifted] : [Math.max(0, shifted), shifted + length];
  if (start >= count || end === 0 || end <= start) return '';
  return characters.slice(start, Math.min(end, count)).join('');
}

/** DuckDB's SubstringASCII, which it runs instead when a column's statistics say the text is ASCII. */
function substringOfAscii(text: string, offset: number, length: number): string {
  if (length === 0) return '';
  let start: number;
  if (offset > 0) start = Math.min(text.length, offset - 1);
  else if (offset < 0) start = Math.max(text.length + offset, 0);
  else {
    start = 0;
    length -= 1;
    if (length <= 0) return '';
  }
  let end: number;
  if (length > 0) end = Math.min(text.length, start + length);
  else [start, end] = [Math.max(0, start + length), start];
  return text.slice(start, end);
}

/**
 * substring() as DuckDB answers it. Over ASCII text DuckDB runs one of two routines, chosen by
 * the column's statistics (a literal and most expressions get the Unicode one, a stored ASCII
 * column the other), and they disagree when the start is before the first character with a
 * positive length, or the length is negative from a positive start: there the engine refuses.
 */
function substringAsDuckDb(text: string, offset: number, length: number): string {
  const unicode = substring(Array.from(text), offset, length);
  if (/[^\u0000-\u007f]/.test(text) || substringOfAscii(text, offset, length) === unicode) return unicode;
  return unsupportedFeature(`substring with start ${offset} and length ${length} (DuckDB's answer depends on the column's statistics there; use a start of 1 or more and a length of 0 or more)`);
}

/** Parts of a text, counted in characters (code points) from 1, as DuckDB counts them (left_right.cpp, substring.cpp). */
export const substringFunctions: ScalarFunctionList = [
  [['substring', 'substr'], {
    minimumArguments: 2, maximumArguments: 3, returnType: fixedType('VARCHAR'),
    evaluate: (args, types) => substringAsDuckDb(
      textArgument(args[0]!, types[0]!),
      integerArgument(args, types, 1, 'substring'),
      args.length === 3 ? integerArgument(args, types, 2, 'substring') : supportedUpperBound,
    ),
  }],
  [['left'], {
    minimumArguments: 2, maximumArguments: 2, returnType: fixedType('VARCHAR'),
    evaluate: (args, types) => {
      const characters = Array.from(textArgument(args[0]!, types[0]!));
      const count = integerArgument(args, types, 1, 'left');
      return substring(characters, 1, count >= 0 ? count : Math.max(0, characters.length + count));
    },
  }],
  [['right'], {
    minimumArguments: 2, maximumArguments: 2, returnType: fixedType('VARCHAR'),
    evaluate: (args, types) => {
      const characters = Array.from(textArgument(args[0]!, types[0]!));
      const count = integerArgument(args, types, 1, 'right');
      const length = count >= 0 ? Math.min(characters.length, count) : characters.length - Math.min(characters.length, -count);
      return substring(characters, characters.length - length + 1, length);
    },
  }],
  [['split_part'], {
    minimumArguments: 3, maximumArguments: 3, returnType: fixedType('VARCHAR'),
    evaluate: (args, types) => {
      const parts = textArgument(args[0]!, types[0]!).split(textArgument(args[1]!, 'VARCHAR'));
      const position = integerArgument(args, types, 2, 'split_part');
      const part = position > 0 ? parts[position - 1] : position < 0 ? parts[parts.length + position] : undefined;
      return part ?? '';
    },
  }],
];
