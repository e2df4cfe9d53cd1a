import { numberArgument, textArgument } from './function-arguments.ts';
import { fixedType, type ScalarFunctionList } from './scalar-function.ts';

/** Parts of a text, counted in characters (code points) from 1, as DuckDB counts them. */
export const substringFunctions: ScalarFunctionList = [
  [['substring', 'substr'], {
    minimumArguments: 2, maximumArguments: 3, returnType: fixedType('VARCHAR'),
    evaluate: ([value, start, length], types) => {
      const characters = [...textArgument(value!, types[0]!)];
      const from = Math.trunc(numberArgument(start!, 'substring'));
      const count = length === undefined ? characters.length : Math.trunc(numberArgument(length, 'substring'));
      const begin = from > 0 ? from - 1 : from === 0 ? 0 : Math.max(0, characters.length + from);
      const end = from === 0 ? count - 1 : begin + count;
      return characters.slice(begin, Math.max(begin, end)).join('');
    },
  }],
  [['left'], { minimumArguments: 2, maximumArguments: 2, returnType: fixedType('VARCHAR'), evaluate: ([value, count], types) => [...textArgument(value!, types[0]!)].slice(0, Math.max(0, numberArgument(count!, 'left'))).join('') }],
  [['right'], {
    minimumArguments: 2, maximumArguments: 2, returnType: fixedType('VARCHAR'),
    evaluate: ([value, count], types) => {
      const characters = [...textArgument(value!, types[0]!)];
      const n = Math.max(0, numberArgument(count!, 'right'));
      return n === 0 ? '' : characters.slice(-n).join('');
    },
  }],
  [['split_part'], {
    minimumArguments: 3, maximumArguments: 3, returnType: fixedType('VARCHAR'),
    evaluate: ([value, separator, index], types) => {
      const parts = textArgument(value!, types[0]!).split(textArgument(separator!, 'VARCHAR'));
      const position = Math.trunc(numberArgument(index!, 'split_part'));
      const part = position > 0 ? parts[position - 1] : position < 0 ? parts[parts.length + position] : undefined;
      return part ?? '';
    },
  }],];
