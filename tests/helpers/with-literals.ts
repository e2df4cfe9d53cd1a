/**
 * `sql` with each `$n` outside quotes replaced by `values[n - 1]` as an SQL literal: a statement the
 * product runs prepared, run by a test as one plain query.
 */
export function withLiterals(sql: string, values: ReadonlyArray<string | null>): string {
  return sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\$(\d+)/g, (token, index: string | undefined) => {
    if (index === undefined) return token;
    const value = values[Number(index) - 1];
    if (value === undefined) throw new Error(`no value for $${index} in ${sql.slice(0, 80)}`);
    return value === null ? 'NULL' : `'${value.replace(/'/g, "''")}'`;
  });
}
