/** A SQL string literal in single quotes, with embedded quotes doubled: any text is safe in SQL text. */
export function sqlString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}
