import { SragError } from '../sql-engine-port.ts';

export type SqlToken =
  | { kind: 'word'; text: string; upper: string; position: number }
  | { kind: 'quotedName'; text: string; position: number }
  | { kind: 'string'; text: string; position: number }
  | { kind: 'number'; text: string; position: number }
  | { kind: 'symbol'; text: string; position: number }
  | { kind: 'end'; position: number };

const symbols = ['::', '||', '<>', '!=', '<=', '>=', '==', '//', '(', ')', ',', '.', '*', '+', '-', '/', '%', '=', '<', '>', ';', '[', ']', '?', '$'];

/** Split SQL text into words, quoted names, string and number literals and symbols; comments are dropped. */
export function tokenizeSql(sql: string): SqlToken[] {
  const tokens: SqlToken[] = [];
  let index = 0;
  const fail = (message: string): never => {
    throw new SragError({ code: 'SQL_FAILED', message: `Parser Error: ${message} at position ${index + 1}` });
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
      let text = '';
      index += 1;
      for (;;) {
        if (index >= sql.length) fail(`unterminated ${character === "'" ? 'string literal' : 'quoted name'}`);
        if (sql[index] === character) {
          if (sql[index + 1] === character) {
            text += character;
            index += 2;
            continue;
          }
          index += 1;
          break;
        }
        text += sql[index];
        index += 1;
      }
      tokens.push(character === "'" ? { kind: 'string', text, position: start } : { kind: 'quotedName', text, position: start });
    } else if (/[0-9]/.test(character) || (character === '.' && /[0-9]/.test(sql[index + 1] ?? ''))) {
      const match = /^(?:[0-9][0-9_]*(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/.exec(sql.slice(index))!;
      tokens.push({ kind: 'number', text: match[0].replace(/_/g, ''), position: index });
      index += match[0].length;
    } else if (/[A-Za-z_\u0080-\uFFFF]/.test(character)) {
      const match = /^[A-Za-z_\u0080-\uFFFF][A-Za-z0-9_$\u0080-\uFFFF]*/.exec(sql.slice(index))!;
      tokens.push({ kind: 'word', text: match[0], upper: match[0].toUpperCase(), position: index });
      index += match[0].length;
    } else {
      const symbol = symbols.find((candidate) => sql.startsWith(candidate, index));
      if (!symbol) fail(`syntax error at or near "${character}"`);
      tokens.push({ kind: 'symbol', text: symbol!, position: index });
      index += symbol!.length;
    }
  }
  tokens.push({ kind: 'end', position: sql.length });
  return tokens;
}
