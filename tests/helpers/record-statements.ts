import type { SragStore } from '../../node/duckdb/store/srag-store.ts';

/** The statements run on the store's connection from now on. */
export function recordStatements(store: SragStore): string[] {
  const statements: string[] = [];
  const run = store.connection.run.bind(store.connection);
  store.connection.run = (sql, ...rest) => {
    statements.push(sql);
    return run(sql, ...rest);
  };
  return statements;
}
