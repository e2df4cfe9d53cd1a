/** One statement of a SQL script, with the line it starts on (1-based), for error messages. */
export interface ScriptStatement {
  sql: string;
  line: number;
}

/**
 * Split a SQL script at the semicolons that end statements: not those inside '…' strings,
 * "…" identifiers, $tag$…$tag$ bodies, -- line comments or block comments. Statements that
 * hold only comments are dropped.
 */
export function splitSqlScript(script: string): ScriptStatement[] {
  const statements: ScriptStatement[] = [];
  let start = 0;
  let line = 1;
  let startLine: number | undefined;
  let index = 0;
  const finish = (end: number) => {
    const sql = script.slice(start, end).trim();
    if (startLine !== undefined && sql) statements.push({ sql, line: startLine });
    start = end + 1;
    startLine = undefined;
  };
  const skipTo = (end: number) => {
    for (let position = index; position < end; position += 1) if (script[position] === '\n') line += 1;
    index = end;
  };
  while (index < script.length) {
    const character = script[index]!;
    const next = script[index + 1];
    if (character === '-' && next === '-') {
      const end = script.indexOf('\n', index);
      skipTo(end < 0 ? script.length : end);
      continue;
    }
    if (character === '/' && next === '*') {
      const end = script.indexOf('*/', index + 2);
      skipTo(end < 0 ? script.length : end + 2);
      continue;
    }
    if (character === '\n') {
      line += 1;
      index += 1;
      continue;
    }
    if (character === ';') {
      finish(index);
      index += 1;
      continue;
    }
    if (!/\s/.test(character)) startLine ??= line;
    if (character === "'" || character === '"') {
      let end = index + 1;
      for (;;) {
        end = script.indexOf(character, end);
        if (end < 0 || script[end + 1] !== character) break;
        end += 2;
      }
      skipTo(end < 0 ? script.length : end + 1);
      continue;
    }
    if (character === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(script.slice(index))?.[0];
      if (tag) {
        const end = script.indexOf(tag, index + tag.length);
        skipTo(end < 0 ? script.length : end + tag.length);
        continue;
      }
    }
    index += 1;
  }
  finish(script.length);
  return statements;
}
