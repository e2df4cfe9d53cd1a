import { SragError } from '../sql-engine-port.ts';
import { checkTextLength } from '../query-budget.ts';
import { formatSqlValue, toFixedHalfEven } from './format-sql-value.ts';
import { SqlDecimal } from './sql-decimal.ts';
import type { RuntimeValue } from './sql-runtime-value.ts';
import type { SqlType } from '../syntax/sql-syntax.ts';

/** JavaScript's toFixed and toExponential stop at 100 digits; %g may ask for a few more than the precision. */
const maximumPrecision = 50;

const typeNames: Record<SqlType, string> = {
  INTEGER: 'int', DOUBLE: 'float', VARCHAR: 'string', BOOLEAN: 'bool', DATE: 'string', INTERVAL: 'string', NULL: 'string', UNKNOWN: 'string',
};

/**
 * DuckDB's `printf`: C-style specifiers checked against the argument's type as DuckDB checks them
 * (`%d` takes integers, `%f` floating point, `%s` text, booleans and dates), NULL anywhere gives NULL.
 */
export function formatPrintf(format: string, args: Array<{ value: RuntimeValue; type: SqlType }>): string | null {
  if (args.some((argument) => argument.value === null)) return null;
  let output = '';
  let argumentIndex = 0;
  const pattern = /%([-+ 0#,']*)([0-9]*)(?:\.([0-9]+))?([diouxXeEfFgGsc%])/g;
  let last = 0;
  for (let match = pattern.exec(format); match; match = pattern.exec(format)) {
    output += format.slice(last, match.index);
    last = pattern.lastIndex;
    const [, flags = '', widthText, precisionText, specifier] = match as unknown as [string, string, string, string | undefined, string];
    if (specifier === '%') {
      output += '%';
      continue;
    }
    const given = args[argumentIndex];
    argumentIndex += 1;
    if (!given) throw invalid('not enough arguments for the format string');
    // DuckDB's printf takes a DECIMAL as a DOUBLE: '%.2f' rounds the double, '%s' and '%d' refuse it.
    const argument = given.value instanceof SqlDecimal ? { value: given.value.toDouble(), type: 'DOUBLE' as const } : given;
    const type = argument.type === 'UNKNOWN' ? guessType(argument.value) : argument.type;
    const precision = precisionText === undefined ? undefined : Number(precisionText);
    let body: string;
    if ('diouxX'.includes(specifier)) {
      if (type !== 'INTEGER') throw badSpecifier(specifier, type);
      const integer = argument.value as number;
      const magnitude = Math.abs(integer);
      body = specifier === 'x' ? magnitude.toString(16) : specifier === 'X' ? magnitude.toString(16).toUpperCase() : specifier === 'o' ? magnitude.toString(8) : String(magnitude);
      if (flags.includes(',') || flags.includes("'")) body = body.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
      body = signed(integer < 0, body, flags);
    } else if ('eEfFgG'.includes(specifier)) {
      if (type !== 'DOUBLE') throw badSpecifier(specifier, type);
      if ((precision ?? 0) > maximumPrecision) throw invalid(`the spreadsheet SQL engine prints at most ${maximumPrecision} digits after the point (found %.${precision}${specifier})`);
      const number = argument.value as number;
      const magnitude = Math.abs(number);
      if (specifier === 'f' || specifier === 'F') body = toFixedHalfEven(magnitude, precision ?? 6);
      else if (specifier === 'e' || specifier === 'E') body = exponential(magnitude, precision ?? 6, specifier === 'E');
      else body = general(magnitude, precision ?? 6);
      if (flags.includes(',') || flags.includes("'")) body = body.replace(/^(\d+)/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','));
      body = signed(number < 0 || Object.is(number, -0), body, flags);
    } else if (specifier === 's') {
      if (type === 'INTEGER' || type === 'DOUBLE') throw badSpecifier(specifier, type);
      body = formatSqlValue(argument.value, type) ?? '';
      if (precision !== undefined) body = body.slice(0, precision);
    } else {
      if (type !== 'INTEGER') throw badSpecifier(specifier, type);
      const codePoint = argument.value as number;
      if (!(codePoint >= 0 && codePoint <= 0x10ffff)) throw invalid(`%c takes a character code from 0 to 1114111 (found ${codePoint})`);
      body = String.fromCodePoint(codePoint);
    }
    const width = widthText ? Number(widthText) : 0;
    checkTextLength(output.length + Math.max(width, body.length));
    if (body.length < width) {
      if (flags.includes('-')) body = body.padEnd(width, ' ');
      else if (flags.includes('0') && 'diouxXeEfFgG'.includes(specifier)) {
        const sign = /^[-+ ]/.test(body) ? body[0]! : '';
        body = sign + body.slice(sign.length).padStart(width - sign.length, '0');
      } else body = body.padStart(width, ' ');
    }
    output += body;
  }
  return output + format.slice(last);
}

function guessType(value: RuntimeValue): SqlType {
  if (typeof value === 'number') return Number.isInteger(value) ? 'INTEGER' : 'DOUBLE';
  if (typeof value === 'boolean') return 'BOOLEAN';
  return 'VARCHAR';
}

function signed(negative: boolean, body: string, flags: string): string {
  if (negative) return `-${body}`;
  if (flags.includes('+')) return `+${body}`;
  if (flags.includes(' ')) return ` ${body}`;
  return body;
}

function exponential(value: number, precision: number, upper: boolean): string {
  const [mantissa, exponent] = value.toExponential(precision).split('e') as [string, string];
  const sign = exponent.startsWith('-') ? '-' : '+';
  const text = `${mantissa}e${sign}${exponent.replace(/^[-+]/, '').padStart(2, '0')}`;
  return upper ? text.toUpperCase() : text;
}

function general(value: number, precision: number): string {
  const significant = precision === 0 ? 1 : precision;
  if (value === 0) return '0';
  const exponent = Math.floor(Math.log10(value));
  if (exponent < -4 || exponent >= significant) {
    return exponential(value, significant - 1, false).replace(/\.?0+e/, 'e');
  }
  const fixed = value.toFixed(Math.max(0, significant - 1 - exponent));
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

function badSpecifier(specifier: string, type: SqlType): SragError {
  return invalid(`Invalid type specifier "${specifier}" for formatting a value of type ${typeNames[type]}`);
}

function invalid(message: string): SragError {
  return new SragError({ code: 'SQL_FAILED', message: `Invalid Input Error: ${message}` });
}
