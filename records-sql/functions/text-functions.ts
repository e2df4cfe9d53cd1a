import { checkTextLength } from '../query-budget.ts';
import { sqlFailure } from '../sql-failure.ts';
import { convertCase } from '../unicode/convert-case.ts';
import { graphemeClusters } from '../unicode/grapheme-clusters.ts';
import { integerArgument, textArgument } from './function-arguments.ts';
import { joinText } from './join-text.ts';
import { fixedType, type ScalarFunction, type ScalarFunctionList } from './scalar-function.ts';

/** strlen(): the length in UTF-8 bytes, as DuckDB counts it. */
function utf8Length(value: string): number {
  let bytes = 0;
  for (const character of value) {
    const codePoint = character.codePointAt(0)!;
    bytes += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** trim(), ltrim() and rtrim(), of spaces or of the characters given. */
function trimFunction(name: 'trim' | 'ltrim' | 'rtrim'): ScalarFunction {
  return {
    minimumArguments: 1, maximumArguments: 2, returnType: fixedType('VARCHAR'),
    evaluate: ([value, characters], types) => {
      const set = characters === undefined ? ' \t\n\r' : textArgument(characters, 'VARCHAR');
      let result = textArgument(value!, types[0]!);
      const strip = (left: boolean) => {
        while (result.length && set.includes(left ? result[0]! : result[result.length - 1]!)) result = left ? result.slice(1) : result.slice(0, -1);
      };
      if (name !== 'rtrim') strip(true);
      if (name !== 'ltrim') strip(false);
      return result;
    },
  };
}

/** replace(): every occurrence of `from`, none when `from` is empty (as in DuckDB); the length is checked first. */
function replaceText(text: string, from: string, to: string): string {
  if (from === '') return text;
  let occurrences = 0;
  for (let index = text.indexOf(from); index >= 0; index = text.indexOf(from, index + from.length)) occurrences += 1;
  checkTextLength(text.length + occurrences * (to.length - from.length));
  return text.split(from).join(to);
}

/**
 * reverse() as DuckDB does it: ASCII text character by character (so "\r\n" turns round), any
 * other text by grapheme clusters (an accent stays on its letter, an emoji sequence stays whole).
 */
function reverseText(text: string): string {
  if (!/[^\u0000-\u007f]/.test(text)) return text.split('').reverse().join('');
  return graphemeClusters(text).reverse().join('');
}

/** Functions over text: case, length, trimming, concatenation, search and replacement. */
export const textFunctions: ScalarFunctionList = [
  [['lower', 'lcase'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('VARCHAR'), evaluate: ([value], types) => convertCase(textArgument(value!, types[0]!), 'lower') }],
  [['upper', 'ucase'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('VARCHAR'), evaluate: ([value], types) => convertCase(textArgument(value!, types[0]!), 'upper') }],
  [['length', 'len', 'char_length', 'character_length'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('INTEGER'), evaluate: ([value], types) => [...textArgument(value!, types[0]!)].length }],
  [['strlen', 'octet_length'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('INTEGER'), evaluate: ([value], types) => utf8Length(textArgument(value!, types[0]!)) }],
  ...(['trim', 'ltrim', 'rtrim'] as const).map((name): [string[], ScalarFunction] => [[name], trimFunction(name)]),
  [['concat'], {
    minimumArguments: 1, maximumArguments: Infinity, seesNulls: true, returnType: fixedType('VARCHAR'),
    evaluate: (args, types) => joinText(args.map((value, index) => (value === null ? '' : textArgument(value, types[index]!)))),
  }],
  [['concat_ws'], {
    minimumArguments: 2, maximumArguments: Infinity, seesNulls: true, returnType: fixedType('VARCHAR'),
    evaluate: ([separator, ...args], types) => (separator === null ? null
      : joinText(args.flatMap((value, index) => (value === null ? [] : [textArgument(value, types[index + 1]!)])), textArgument(separator!, types[0]!))),
  }],
  [['replace'], { minimumArguments: 3, maximumArguments: 3, returnType: fixedType('VARCHAR'), evaluate: ([value, from, to], types) => replaceText(textArgument(value!, types[0]!), textArgument(from!, 'VARCHAR'), textArgument(to!, 'VARCHAR')) }],
  [['contains'], { minimumArguments: 2, maximumArguments: 2, returnType: fixedType('BOOLEAN'), evaluate: ([value, part], types) => textArgument(value!, types[0]!).includes(textArgument(part!, types[1]!)) }],
  [['starts_with', 'prefix'], { minimumArguments: 2, maximumArguments: 2, returnType: fixedType('BOOLEAN'), evaluate: ([value, part], types) => textArgument(value!, types[0]!).startsWith(textArgument(part!, types[1]!)) }],
  [['ends_with', 'suffix'], { minimumArguments: 2, maximumArguments: 2, returnType: fixedType('BOOLEAN'), evaluate: ([value, part], types) => textArgument(value!, types[0]!).endsWith(textArgument(part!, types[1]!)) }],
  [['strpos', 'instr', 'position'], {
    minimumArguments: 2, maximumArguments: 2, returnType: fixedType('INTEGER'),
    evaluate: ([value, part], types) => {
      const haystack = textArgument(value!, types[0]!);
      const index = haystack.indexOf(textArgument(part!, types[1]!));
      return index < 0 ? 0 : [...haystack.slice(0, index)].length + 1;
    },
  }],
  [['reverse'], { minimumArguments: 1, maximumArguments: 1, returnType: fixedType('VARCHAR'), evaluate: ([value], types) => reverseText(textArgument(value!, types[0]!)) }],
  [['repeat'], {
    minimumArguments: 2, maximumArguments: 2, returnType: fixedType('VARCHAR'),
    evaluate: (args, types) => {
      const text = textArgument(args[0]!, types[0]!);
      const times = Math.max(0, integerArgument(args, types, 1, 'repeat'));
      checkTextLength(text.length * times);
      return text.repeat(times);
    },
  }],
  [['lpad', 'rpad'], {
    minimumArguments: 3, maximumArguments: 3, returnType: fixedType('VARCHAR'),
    evaluate: () => sqlFailure('Not implemented Error: lpad/rpad are not supported by the spreadsheet SQL engine'),
  }],
];
