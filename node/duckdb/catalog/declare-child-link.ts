import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../quote-identifier.ts';

/**
 * Records in `srag_table_links` that a child entity's table joins its parent on `_source` (the
 * document's identity), both ways, so that table choice treats the pair as joinable and the SQL
 * prompt shows the key. The link is declared by the schema, not found by value overlap (the
 * profile skips `_source`): every item's `_source` is its parent's row by construction, so the
 * child-to-parent direction is a full key; the other way says how many documents list items.
 * Rewritten after every run, since refreshing either table's profile drops links to it.
 */
export async function declareChildLink(connection: DuckDBConnection, parent: string, child: string): Promise<void> {
  await connection.run(
    `DELETE FROM srag_table_links WHERE column_name = '_source' AND other_column = '_source'
       AND ((table_name = $1 AND other_table = $2) OR (table_name = $2 AND other_table = $1))`, [parent, child]);
  await connection.run(
    `INSERT INTO srag_table_links
     WITH counts AS (
       SELECT (SELECT count(*) FROM ${quoteIdentifier(parent)}) AS parents,
         (SELECT count(*) FROM ${quoteIdentifier(child)}) AS items,
         (SELECT count(DISTINCT "_source") FROM ${quoteIdentifier(child)}) AS listing
     )
     SELECT $2, '_source', $1, '_source', 1.0, 1.0, listing FROM counts
     UNION ALL
     SELECT $1, '_source', $2, '_source', CASE WHEN parents = 0 THEN 0.0 ELSE listing / parents END,
       CASE WHEN items = 0 THEN 1.0 ELSE listing / items END, listing FROM counts`,
    [parent, child]);
}
