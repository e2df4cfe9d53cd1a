import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { quoteShellArgument, sragCommandLine } from '../../node/runtime/quote-shell-argument.ts';

/** The words a POSIX shell reads from `line`. */
function shellWords(line: string): string[] {
  return spawnSync('bash', ['-c', `set -- ${line}; printf '%s\\0' "$@"`], { encoding: 'utf8' }).stdout.split('\0').slice(0, -1);
}

describe('quoteShellArgument', () => {
  const argumentsToQuote = [
    'plain-word.md', 'two words', "SELECT * FROM srag_ask('How many hotels are in Spain?')", "it's $HOME", 'a "quoted" word', "back`tick` and \\ and 'quote'",
    "wow! 'x'", 'line one\nline two', "O'Brien's", '',
  ];

  it('writes each argument so that a shell reads it back unchanged', () => {
    for (const argument of argumentsToQuote) expect(shellWords(quoteShellArgument(argument)), argument).toEqual([argument]);
  });

  it('keeps SQL legible: double quotes around single-quoted strings where nothing in them is special', () => {
    expect(quoteShellArgument("SELECT * FROM srag_ask('How many?')")).toBe(`"SELECT * FROM srag_ask('How many?')"`);
    expect(quoteShellArgument("SELECT '$1'")).toBe(`'SELECT '\\''$1'\\'''`);
    expect(quoteShellArgument('docs/a.md')).toBe('docs/a.md');
  });

  it('adds --db only for a database other than the default', () => {
    expect(sragCommandLine(['why', 'a.md', 'price'], 'srag.duckdb')).toBe('srag why a.md price');
    expect(shellWords(sragCommandLine(['sql', "SELECT 'x y'"], '/tmp/my dir/x.duckdb'))).toEqual(['srag', 'sql', "SELECT 'x y'", '--db', '/tmp/my dir/x.duckdb']);
  });
});
