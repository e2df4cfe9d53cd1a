import { uniqueColumnNames } from '../../../app/index.ts';
import type { SqlValue } from '../../../core/index.ts';

/**
 * A query's rows as the JSON text of `srag_ask`'s `result`: an array of objects, one per row, each
 * with the query's columns in the query's order. Objects cannot hold two keys of one name, so a
 * repeated column name is made unique as DuckDB makes it in a subquery (`city`, `city_1`, `city_2`;
 * `city_1_1` when the query has its own `city_1`). The text is written key by key rather than
 * through `JSON.stringify` of objects, which would lose a repeated column and put integer-like names
 * ("2023") before the others.
 */
export function resultRowsJson(columns: readonly string[], rows: readonly SqlValue[][]): string {
  const keys = uniqueColumnNames(columns).map((name) => JSON.stringify(name));
  return `[${rows.map((row) => `{${keys.map((key, index) => `${key}:${JSON.stringify(row[index] ?? null)}`).join(',')}}`).join(',')}]`;
}
