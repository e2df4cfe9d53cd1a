import type { DuckDBConnection } from '@duckdb/node-api';
import { quoteIdentifier } from '../quote-identifier.ts';
import { sqlString } from '../../runtime/sql-string.ts';

/** Hashes kept per column: overlap between two columns is exact below this many distinct values, estimated above. */
export const sketchSize = 1024;
/** Most frequent values per text column kept as phrases the question's words are matched against. */
export const valuePhrasesPerColumn = 1000;
/** A value longer than this is prose, not a name a question would mention. */
const longestValuePhrase = 64;
/** A link needs this share of one column's distinct values in the other. */
const minimumContainment = 0.3;

const integerTypes = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT']);
/** srag's provenance columns join nothing. */
const skippedColumns = new Set(['_source', '_content_hash']);

/**
 * Rebuilds the catalog rows of `table` (profiles, sketches, value phrases, links both ways), in
 * DuckDB: only counts and small samples leave the table, so this holds at millions of rows. Text
 * and integer columns take part; floats, booleans and dates say little about which rows meet.
 * Overlap uses bottom-k sketches of value hashes: below `sketchSize` distinct values a column's
 * sketch is the whole column and overlap is exact; above, hashes up to the smaller threshold of
 * the two columns are a uniform sample of both, scaled up.
 */
export async function refreshTableProfile(connection: DuckDBConnection, table: string): Promise<void> {
  const source = quoteIdentifier(table);
  // The columns as the statements below read the table (a query that reads no row), not from
  // `duckdb_columns()`, whose first call in an instance cost 15–45 ms of CPU (later ones ~3 ms):
  // paid at each ingest's end. A type's alias (JSON) is its name, as `duckdb_columns()` gives it.
  const shape = await connection.runAndReadAll(`SELECT * FROM ${source} LIMIT 0`);
  const columns = shape.columnNames()
    .map((name, index) => {
      const type = shape.columnType(index);
      return { name, type: type.alias ?? type.toString() };
    })
    .filter((column) => !skippedColumns.has(column.name) && (column.type === 'VARCHAR' || integerTypes.has(column.type)));
  await forgetTableProfile(connection, table);
  // The table's and column's names as literals, not parameters: a statement with parameters is
  // prepared, bound and run in three steps, ~0.5–0.8 ms of CPU more each (three per column).
  const tableName = sqlString(table);
  for (const column of columns) {
    const name = quoteIdentifier(column.name);
    const columnName = sqlString(column.name);
    const text = `CAST(${name} AS VARCHAR)`;
    await connection.run(
      `INSERT INTO srag_column_sketches SELECT ${tableName}, ${columnName}, value_hash FROM (
         SELECT DISTINCT hash(${text}) AS value_hash FROM ${source} WHERE ${name} IS NOT NULL) ORDER BY value_hash LIMIT ${sketchSize}`);
    await connection.run(
      `INSERT INTO srag_column_profiles SELECT ${tableName}, ${columnName}, ${sqlString(column.type)}, count(${name}), count(DISTINCT ${text}),
         CASE WHEN count(DISTINCT ${text}) > ${sketchSize} THEN (SELECT max(value_hash) FROM srag_column_sketches WHERE table_name = ${tableName} AND column_name = ${columnName}) END
       FROM ${source}`);
    if (column.type === 'VARCHAR') {
      await connection.run(
        `INSERT INTO srag_column_values SELECT ${tableName}, ${columnName}, phrase FROM (
           SELECT trim(regexp_replace(lower(${name}), '[^\\p{L}\\p{N}]+', ' ', 'g')) AS phrase, count(*) AS frequency
           FROM ${source} WHERE ${name} IS NOT NULL AND length(${name}) <= ${longestValuePhrase}
           GROUP BY phrase ORDER BY frequency DESC, phrase LIMIT ${valuePhrasesPerColumn}) WHERE phrase <> ''`);
    }
  }
  await connection.run(
    `INSERT INTO srag_table_links
     WITH pairs AS (
       SELECT mine.column_name AS my_column, theirs.table_name AS other_table, theirs.column_name AS other_column,
         count(*) AS shared_in_sample,
         least(coalesce(my_profile.sketch_threshold, 18446744073709551615::UBIGINT), coalesce(their_profile.sketch_threshold, 18446744073709551615::UBIGINT)) AS threshold,
         any_value(my_profile.distinct_count) AS my_distinct, any_value(my_profile.non_null) AS my_non_null,
         any_value(their_profile.distinct_count) AS their_distinct, any_value(their_profile.non_null) AS their_non_null
       FROM srag_column_sketches mine
       JOIN srag_column_sketches theirs ON theirs.value_hash = mine.value_hash AND theirs.table_name <> mine.table_name
       JOIN srag_column_profiles my_profile ON my_profile.table_name = mine.table_name AND my_profile.column_name = mine.column_name
       JOIN srag_column_profiles their_profile ON their_profile.table_name = theirs.table_name AND their_profile.column_name = theirs.column_name
       WHERE mine.table_name = $1
         AND mine.value_hash <= least(coalesce(my_profile.sketch_threshold, 18446744073709551615::UBIGINT), coalesce(their_profile.sketch_threshold, 18446744073709551615::UBIGINT))
         AND (my_profile.data_type = 'VARCHAR') = (their_profile.data_type = 'VARCHAR')
         -- Small whole numbers (ratings, counts, row numbers) meet everywhere by chance: integers link
         -- only between columns of many values whose names agree (\`city_id\` and \`id\`, \`year\` and \`year\`).
         AND (my_profile.data_type = 'VARCHAR' OR (my_profile.distinct_count >= 10 AND their_profile.distinct_count >= 10
           AND (mine.column_name = theirs.column_name OR suffix(mine.column_name, '_' || theirs.column_name) OR suffix(theirs.column_name, '_' || mine.column_name))))
       GROUP BY ALL
     ),
     estimated AS (
       SELECT *, least(my_distinct, their_distinct, round(shared_in_sample / (threshold::DOUBLE / 18446744073709551615.0))) AS shared
       FROM pairs WHERE shared_in_sample >= 2
     ),
     directed AS (
       SELECT $1 AS table_name, my_column AS column_name, other_table, other_column,
         shared / my_distinct AS containment, their_distinct / their_non_null AS other_uniqueness, shared FROM estimated
       UNION ALL
       SELECT other_table, other_column, $1, my_column, shared / their_distinct, my_distinct / my_non_null, shared FROM estimated
     )
     SELECT table_name, column_name, other_table, other_column, containment, other_uniqueness, shared FROM directed
     WHERE containment >= ${minimumContainment}`,
    [table]);
}

/** Removes every catalog row about `table`, including links from other tables to it. */
export async function forgetTableProfile(connection: DuckDBConnection, table: string): Promise<void> {
  for (const catalog of ['srag_column_profiles', 'srag_column_sketches', 'srag_column_values']) {
    await connection.run(`DELETE FROM ${catalog} WHERE table_name = $1`, [table]);
  }
  await connection.run('DELETE FROM srag_table_links WHERE table_name = $1 OR other_table = $1', [table]);
}
