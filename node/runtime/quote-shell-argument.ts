/** Characters a POSIX shell leaves alone in a word. */
const plainWord = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One argument as a POSIX shell (bash, zsh, sh) reads it back unchanged: plain words as they are;
 * a text with single quotes (SQL) in double quotes when nothing in it is special there (`"`, `$`,
 * a backtick, `\`, `!`); anything else in single quotes, each embedded one written as '\''. Hints
 * print commands with these, so that a hint pasted into a terminal does what it says.
 */
export function quoteShellArgument(argument: string): string {
  if (plainWord.test(argument)) return argument;
  // Double quotes read the same where nothing in them is special, and SQL's own quotes stay legible.
  if (argument.includes("'") && !/["$`\\!]/.test(argument)) return `"${argument}"`;
  return `'${argument.replace(/'/g, `'\\''`)}'`;
}

/** `srag <words…>` with `--db PATH` when the database is not the default one, every word shell-quoted. */
export function sragCommandLine(words: string[], databasePath: string): string {
  const database = databasePath === 'srag.duckdb' ? [] : ['--db', databasePath];
  return ['srag', ...[...words, ...database].map(quoteShellArgument)].join(' ');
}
