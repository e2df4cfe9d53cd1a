/** Characters a POSIX shell leaves alone in a word. */
const plainWord = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One argument as a POSIX shell (bash, zsh, sh) reads it back unchanged: plain words as they are,
 * anything else in single quotes, each embedded single quote written as '\''. Hints print
 * commands with these, so that a hint pasted into a terminal does what it says.
 */
export function quoteShellArgument(argument: string): string {
  if (plainWord.test(argument)) return argument;
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

/** `srag <words…>` with `--db PATH` when the database is not the default one, every word shell-quoted. */
export function sragCommandLine(words: string[], databasePath: string): string {
  const database = databasePath === 'srag.duckdb' ? [] : ['--db', databasePath];
  return ['srag', ...[...words, ...database].map(quoteShellArgument)].join(' ');
}
