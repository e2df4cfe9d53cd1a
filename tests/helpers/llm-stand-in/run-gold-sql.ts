import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import type { GoldCorpus } from './load-gold-corpus.ts';

export type GoldRow = Array<string | number | boolean | null>;

const numericType = /^(U?TINYINT|U?SMALLINT|U?INTEGER|U?BIGINT|U?HUGEINT|FLOAT|DOUBLE|DECIMAL)/;

function columnType(property: unknown): string {
  const { type, format } = (property ?? {}) as { type?: string; format?: string };
  if (type === 'integer') return 'BIGINT';
  if (type === 'number') return 'DOUBLE';
  if (type === 'boolean') return 'BOOLEAN';
  return format === 'date' ? 'DATE' : 'VARCHAR';
}

/**
 * One in-memory DuckDB on one thread for every gold query of the process, made at the first. A
 * database per query cost about 20 ms of CPU to open and close (DuckDB starts and joins a thread
 * per core), and `srag eval` asks the stand-in ~50 such questions a run. Queries take their turn:
 * each fills the corpus's table afresh, so two at once would see each other's rows.
 */
let connection: Promise<DuckDBConnection> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/**
 * Runs `sql` (a gold query, naming the corpus's table) over `records` only: the table the model
 * would have built from what it saw, a temporary table of that name made anew for the query (the
 * temporary catalog comes first in DuckDB's search path). Numbers come back as numbers, dates as
 * `YYYY-MM-DD`.
 */
export function runGoldSql(corpus: GoldCorpus, records: Array<{ document: string; values: Record<string, unknown> }>, sql: string): Promise<GoldRow[]> {
  const run = queue.then(async () => {
    connection ??= DuckDBInstance.create(':memory:', { threads: '1' }).then((instance) => instance.connect());
    return await runOver(await connection, corpus, records, sql);
  });
  queue = run.catch(() => undefined);
  return run;
}

async function runOver(connection: DuckDBConnection, corpus: GoldCorpus, records: Array<{ document: string; values: Record<string, unknown> }>, sql: string): Promise<GoldRow[]> {
  const properties = Object.entries(corpus.schema.properties);
  const table = `temp.main."${corpus.tableName}"`;
  try {
    const types = properties.map(([, property]) => columnType(property));
    const columns = properties.map(([name], index) => `"${name}" ${types[index]}`);
    await connection.run(`CREATE OR REPLACE TEMPORARY TABLE "${corpus.tableName}" (${[...columns, '"_source" VARCHAR'].join(', ')})`);
    if (records.length > 0) {
      // One statement for all the rows; each value cast to its column's type as a single-row insert would.
      const width = types.length + 1;
      const tuples = records.map((_, row) => `(${[...types.map((type, index) => `$${row * width + index + 1}::${type}`), `$${row * width + width}`].join(', ')})`);
      const values = records.flatMap((record) => [...properties.map(([name]) => {
        const value = record.values[name];
        return value === undefined || value === null ? null : (value as string | number | boolean);
      }), record.document]);
      await connection.run(`INSERT INTO ${table} VALUES ${tuples.join(', ')}`, values);
    }
    const reader = await connection.runAndReadAll(sql);
    const numeric = reader.columnTypes().map((type) => numericType.test(String(type)));
    return reader.getRowsJson().map((row) => row.map((cell, index) => {
      if (cell === null || cell === undefined) return null;
      if (numeric[index]) return Number(cell);
      return typeof cell === 'string' || typeof cell === 'number' || typeof cell === 'boolean' ? cell : JSON.stringify(cell);
    }));
  } finally {
    await connection.run(`DROP TABLE IF EXISTS ${table}`);
  }
}
