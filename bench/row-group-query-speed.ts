/**
 * What srag's row groups of `rowGroupRows` rows (`openDuckDbFile`) cost a query of a large record
 * table, against DuckDB's default (122,880 rows), each on its own file of the same rows:
 *
 *   node --import tsx bench/row-group-query-speed.ts [--rows 1000000]
 *
 * Prints per layout: the file's size, and the wall milliseconds (best of 5, after one warm-up) of a
 * whole-table scan with GROUP BY, a count(DISTINCT) of a text column, and a lookup by the key.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DuckDBInstance } from '../node/duckdb/duckdb-node-api.ts';
import { openDuckDbFile, rowGroupRows } from '../node/duckdb/store/open-duckdb-file.ts';

const { values: flags } = parseArgs({ options: { rows: { type: 'string', default: '1000000' } } });
const rows = Number(flags.rows);
const directory = mkdtempSync(join(tmpdir(), 'srag-row-groups-'));
const queries: Array<[name: string, sql: string]> = [
  ['scan + GROUP BY city', 'SELECT city, count(*), avg(price_per_night), max(review_count) FROM hotels GROUP BY city ORDER BY city'],
  ['count(DISTINCT hotel_name)', 'SELECT count(DISTINCT hotel_name) FROM hotels'],
  ['filter + sort, top 10', "SELECT hotel_name, price_per_night FROM hotels WHERE country = 'Spain' AND star_rating >= 4 ORDER BY price_per_night DESC LIMIT 10"],
  ['lookup by _source', `SELECT * FROM hotels WHERE "_source" = 'docs/hotel-${Math.floor(rows / 2)}.md'`],
];
try {
  for (const layout of ['DuckDB default (122,880)', `srag (${rowGroupRows})`]) {
    const path = join(directory, `${layout.startsWith('srag') ? 'srag' : 'default'}.duckdb`);
    const instance = layout.startsWith('srag') ? (await openDuckDbFile(path)).instance : await DuckDBInstance.create(path);
    const connection = await instance.connect();
    await connection.run(`CREATE TABLE hotels (hotel_name VARCHAR, city VARCHAR, country VARCHAR, star_rating BIGINT, price_per_night DOUBLE, review_count BIGINT, "_source" VARCHAR PRIMARY KEY, "_content_hash" VARCHAR NOT NULL)`);
    // Appended in commits of 1,000 rows, as an ingest's group commits append them.
    for (let start = 0; start < rows; start += 100_000) {
      await connection.run('BEGIN TRANSACTION');
      for (let slice = start; slice < Math.min(rows, start + 100_000); slice += 1_000) {
        await connection.run(`INSERT INTO hotels SELECT 'Hotel ' || (i * 7919 % ${rows}), 'City ' || (i % 400), 'Country ' || (i % 40), 1 + i % 5, 40 + (i * 37 % 500), i * 13 % 9000,
          'docs/hotel-' || i || '.md', md5(i::VARCHAR) FROM range(${slice}, ${Math.min(rows, slice + 1_000)}) r(i)`);
      }
      await connection.run('COMMIT');
    }
    await connection.run('CHECKPOINT');
    const groups = (await connection.runAndReadAll("SELECT count(DISTINCT row_group_id) FROM pragma_storage_info('hotels')")).getRowsJS()[0]![0];
    const timings: string[] = [];
    for (const [name, sql] of queries) {
      await connection.run(sql);
      let best = Number.POSITIVE_INFINITY;
      for (let run = 0; run < 5; run++) {
        const started = performance.now();
        await connection.runAndReadAll(sql);
        best = Math.min(best, performance.now() - started);
      }
      timings.push(`${name} ${best.toFixed(1)} ms`);
    }
    connection.closeSync();
    instance.closeSync();
    console.log(`${layout}: ${groups} row groups, ${(statSync(path).size / 1048576).toFixed(1)} MB file; ${timings.join('; ')}`);
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
