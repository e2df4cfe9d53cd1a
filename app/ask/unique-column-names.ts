/**
 * `columns` with each repeat (the same name, case and all: JSON keys tell case apart) renamed
 * `<name>_<n>`, the first free n from 1, as DuckDB names a subquery's columns: the names every
 * surface gives a result's columns (`srag_ask`'s objects need them unique).
 */
export function uniqueColumnNames(columns: readonly string[]): string[] {
  const taken = new Set<string>();
  return columns.map((column) => {
    let name = column;
    if (taken.has(name)) {
      let suffix = 1;
      while (taken.has(`${column}_${suffix}`)) suffix += 1;
      name = `${column}_${suffix}`;
    }
    taken.add(name);
    return name;
  });
}
