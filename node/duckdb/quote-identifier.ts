/** A DuckDB identifier in double quotes, with embedded quotes doubled: any name is safe in SQL text. */
export function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
