import type { Expression } from '../syntax/sql-syntax.ts';
import { parseCase } from './parse-case.ts';
import { parseInterval } from './parse-interval.ts';
import { parseNameReference } from './parse-name-reference.ts';
import type { SqlGrammar } from './sql-grammar.ts';
import { reservedWords } from './sql-words.ts';
import { SqlDecimal } from '../values/sql-decimal.ts';
import { widestDecimal } from '../values/decimal-type.ts';

/**
 * A number as DuckDB types it (Transformer::TransformValue): digits alone are an integer; with a
 * point and no exponent, an exact DECIMAL as wide as its digits with the scale of its fraction
 * (`1.10` is DECIMAL(3,2), `.5` DECIMAL(1,1)) while it fits 38 digits; otherwise a DOUBLE.
 */
function numberLiteral(text: string): Expression {
  if (/^[0-9]+$/.test(text)) return { type: 'literal', value: Number(text), valueType: 'INTEGER' };
  const point = text.indexOf('.');
  const width = text.length - 1;
  if (point >= 0 && !/[eE]/.test(text) && width <= widestDecimal) {
    const value = new SqlDecimal(BigInt(text.replace('.', '')), width, width - point);
    return { type: 'literal', value, valueType: value.sqlType };
  }
  return { type: 'literal', value: Number(text), valueType: 'DOUBLE' };
}

/** A literal, a column or call, a parenthesized expression or subquery, or a keyword form. */
export function parsePrimary(grammar: SqlGrammar): Expression {
  const { cursor } = grammar;
  const token = cursor.next();
  switch (token.kind) {
    case 'number': return numberLiteral(token.text);
    case 'string': return { type: 'literal', value: token.text, valueType: 'VARCHAR' };
    case 'quotedName': return parseNameReference(grammar, token.text, true);
    case 'symbol': {
      if (token.text === '(') {
        if (cursor.isWord('SELECT') || cursor.isWord('WITH')) {
          const query = grammar.query();
          cursor.expectSymbol(')');
          return { type: 'subquery', query };
        }
        const inner = grammar.expression();
        if (cursor.isSymbol(',')) cursor.unsupported('row values');
        cursor.expectSymbol(')');
        return inner;
      }
      if (token.text === '?' || token.text === '$') cursor.unsupported('query parameters');
      if (token.text === '[') cursor.unsupported('list literals');
      cursor.index -= 1;
      return cursor.fail(`syntax error at or near "${token.text}"`);
    }
    case 'end':
      cursor.index -= 1;
      return cursor.fail('syntax error at end of input');
    case 'word': break;
  }
  const word = token;
  switch (word.upper) {
    case 'NULL': return { type: 'literal', value: null, valueType: 'NULL' };
    case 'TRUE': return { type: 'literal', value: true, valueType: 'BOOLEAN' };
    case 'FALSE': return { type: 'literal', value: false, valueType: 'BOOLEAN' };
    case 'DATE': {
      const next = cursor.peek();
      if (next.kind === 'string') {
        cursor.index += 1;
        return { type: 'dateLiteral', text: next.text };
      }
      break;
    }
    case 'TIMESTAMP':
      if (cursor.peek().kind === 'string') cursor.unsupported('TIMESTAMP values (dates are DATE values)');
      break;
    case 'INTERVAL': return parseInterval(grammar);
    case 'CASE': return parseCase(grammar);
    case 'CAST':
    case 'TRY_CAST': {
      cursor.expectSymbol('(');
      const operand = grammar.expression();
      cursor.expectWord('AS');
      const { type: targetType, integerDigits } = grammar.typeName();
      cursor.expectSymbol(')');
      return { type: 'cast', operand, targetType, tryCast: word.upper === 'TRY_CAST', integerDigits };
    }
    case 'EXTRACT':
      if (cursor.acceptSymbol('(')) {
        const part = cursor.name('a date part').toLowerCase();
        cursor.expectWord('FROM');
        const operand = grammar.expression();
        cursor.expectSymbol(')');
        return { type: 'function', name: 'date_part', args: [{ type: 'literal', value: part, valueType: 'VARCHAR' }, operand], distinct: false, star: false };
      }
      break;
    case 'EXISTS':
      if (cursor.acceptSymbol('(')) {
        const query = grammar.query();
        cursor.expectSymbol(')');
        return { type: 'exists', query, negated: false };
      }
      break;
    case 'CURRENT_DATE': return { type: 'function', name: 'current_date', args: [], distinct: false, star: false };
    case 'NOT': return { type: 'unary', operator: 'NOT', operand: grammar.negation() };
    default: break;
  }
  if (reservedWords.has(word.upper) && !cursor.isSymbol('(')) {
    cursor.index -= 1;
    cursor.fail(`syntax error at or near "${word.text}"`);
  }
  return parseNameReference(grammar, word.text, false);
}
