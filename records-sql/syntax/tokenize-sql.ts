import { SragError } from '../sql-engine-port.ts';

export type SqlToken =
  | { kind: 'word'; text: string; upper: string; position: number }
  | { kind: 'quotedName'; text: string; position: number }
  | { kind: 'string'; text: string; position: number }
  | { kind: 'number'; text: string; position: number }
  | { kind: 'symbol'; text: string; position: number }
  | { kind: 'end'; position: number };

const symbols = ['::', '||', '<>', '!=', '<=', '>=', '==', '//', '(', ')', ',', '.', '*', '+', '-', '/', '%', '=', '<', '>', ';', '[', ']', '?', '$'];
// Sticky expressions read at `lastIndex` without copying the rest of the text: tokenizing is linear.
const numberPattern = /(?:[0-9][0-9_]*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
const wordPattern = /[A-Za-z_\u0080-\uFFFF][A-Za-z0-9_$\u0080-\uFFFF]*/y;

/** Split SQL text into words, quoted names, string and number literals and symbols; comments are dropped. */
export function tokenizeSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let index = 0;
  const fail = (message: string): never => {
    throw new SragError({ code: 'SQL_FAILED', message: `Parser Error: ${message} at position ${index + 1}` });
  };
  const read = (pattern: RegExp): string => {
    pattern.lastIndex = index;
    return pattern.exec(sql)![0];
  };
  while (index < sql.length) {
    const character = sql[index]!;
    if (/\s/.test(character)) {
      index += 1;
    } else if (sql.startsWith('--', index)) {
      const end = sql.indexOf('\n', index);
      index = end < 0 ? sql.length : end + 1;
    } else if (sql.startsWith('/*', index)) {
      const end = sql.indexOf('*/', index + 2);
      if (end < 0) fail('unterminated comment');
      index = end + 2;
    } else if (character === "'" || character === '"') {
      const start = index;
      const parts: string[] = [];
      for (index += 1; ; ) {
        const close = sql.indexOf(character, index);
        if (close < 0) index = sql.length;
        if (close < 0) fail(`unterminated ${character === "'" ? 'string literal' : 'quoted name'}`);
        parts.push(sql.slice(index, close));
        index = close + 1;
        if (sql[index] !== character) break;
        parts.push(character);
        index += 1;
      }
      const text = parts.join('');
      tokens.push(character === "'" ? { kind: 'string', text, position: start } : { kind: 'quotedName', text, position: start });
    } else if (/[0-9]/.test(character) || (character === '.' && /[0-9]/.test(sql[index + 1] ?? ''))) {
      const text = read(numberPattern);
      tokens.push({ kind: 'number', text: text.replace(/_/g, ''), position: index });
      index += text.length;
    } else if (/[A-Za-z_\u0080-\uFFFF]/.test(character)) {
      const text = read(wordPattern);
      tokens.push({ kind: 'word', text, upper: text.toUpperCase(), position: index });
      index += text.length;
    } else {
      const symbol = symbols.find((candidate) => sql.startsWith(candidate, index)) ?? fail(`syntax error at or near "${character}"`);
      tokens.push({ kind: 'symbol', text: symbol, position: index });
      index += symbol.length;
    }
  }
  tokens.push({ kind: 'end', position: sql.length });
  return tokens;
}
