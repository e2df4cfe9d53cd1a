import { describe, expect, it } from 'vitest';
import { DuckDBInstance } from '../../node/duckdb/duckdb-node-api.ts';
import { catalogTablesSql } from '../../node/duckdb/catalog/catalog-tables.ts';
import { refreshTableProfile } from '../../node/duckdb/catalog/refresh-table-profile.ts';

describe('a table\'s catalog profile', () => {
  it('names the table and its text and integer columns exactly, quotes and all, in its profiles, sketches and value phrases (not a JSON column)', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      await connection.run(catalogTablesSql);
      await connection.run(`CREATE TABLE "guest's ""rooms""" (city VARCHAR, "o'clock" VARCHAR, rooms BIGINT, price DOUBLE, meta JSON, floor INTEGER, "_source" VARCHAR);
        INSERT INTO "guest's ""rooms""" VALUES ('Porto', 'Ten', 3, 1.5, '{"a":1}', 1, 'a'), ('Porto', NULL, 4, 2.5, '[]', 2, 'b'), ('Lisbon', 'Noon', 3, NULL, NULL, NULL, 'c')`);
      await refreshTableProfile(connection, 'guest\'s "rooms"');
      const rows = async (sql: string) => (await connection.runAndReadAll(sql)).getRowsJS().map((row) => row.map((cell) => (typeof cell === 'bigint' ? Number(cell) : cell)));
      expect(await rows('SELECT table_name, column_name, data_type, non_null, distinct_count, sketch_threshold FROM srag_column_profiles ORDER BY column_name')).toEqual([
        ['guest\'s "rooms"', 'city', 'VARCHAR', 3, 2, null],
        ['guest\'s "rooms"', 'floor', 'INTEGER', 2, 2, null],
        ['guest\'s "rooms"', 'o\'clock', 'VARCHAR', 2, 2, null],
        ['guest\'s "rooms"', 'rooms', 'BIGINT', 3, 2, null],
      ]);
      expect(await rows('SELECT table_name, column_name, count(*) FROM srag_column_sketches GROUP BY ALL ORDER BY column_name')).toEqual([
        ['guest\'s "rooms"', 'city', 2], ['guest\'s "rooms"', 'floor', 2], ['guest\'s "rooms"', 'o\'clock', 2], ['guest\'s "rooms"', 'rooms', 2],
      ]);
      expect(await rows('SELECT table_name, column_name, phrase FROM srag_column_values ORDER BY column_name, phrase')).toEqual([
        ['guest\'s "rooms"', 'city', 'lisbon'], ['guest\'s "rooms"', 'city', 'porto'], ['guest\'s "rooms"', 'o\'clock', 'noon'], ['guest\'s "rooms"', 'o\'clock', 'ten'],
      ]);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
