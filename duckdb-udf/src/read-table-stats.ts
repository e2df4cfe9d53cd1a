import type { DuckDBConnection } from '@duckdb/node-api';
import { childTableName, type ColumnStatistics, type RecordSchema } from '../../core/index.ts';
import { extractMadeTable } from './catalog/srag-extract-tables.ts';
import { quoteIdentifier } from './quote-identifier.ts';
import { queryColumnStatistics } from './store/query-column-statistics.ts';
import type { SragStore } from './store/srag-store.ts';

export interface TableStats {
  table: string;
  schema: RecordSchema;
  rows: number;
  /** Rows whose every attribute is null. */
  rowsWithoutValues: number;
  /** Ingestion log entries per status, in status order. */
  log: Record<string, number>;
  statistics: ColumnStatistics[];
  /** For a child entity's table: the table of the documents that list its items, and the entity. */
  parent?: { table: string; entity: string };
  /** For a table whose schema declares child entities: each one's table and its rows. */
  children?: Array<{ entity: string; table: string; rows: number }>;
  /**
   * For a table made from `srag_extract`'s rows: the key of the schema `srag_extract` recorded
   * (whose ingestion log `log` counts: every document scanned with it), and its statistics are
   * computed from the table at each read rather than stored.
   */
  sragExtract?: { schemaKey: string };
}

/**
 * A table's row counts, ingestion log counts and stored statistics (what `srag stats` and
 * `GET /stats` show). `connection` reads the rows: the store's own for the CLI, a reader of its own
 * for the server, so a read never lands inside an ingest's transaction. DuckDB counts; no row
 * crosses into JavaScript.
 */
export async function readTableStats(store: SragStore, connection: DuckDBConnection, table?: string): Promise<TableStats> {
  const made = await extractMadeTable(await store.tables(), connection, store.path, table);
  if (made) {
    const { rows, rowsWithoutValues } = await countRows(connection, made.name, made.schema);
    return {
      table: made.name, schema: made.schema, rows, rowsWithoutValues, log: await logCounts(connection, made.evidence!.name),
      statistics: await queryColumnStatistics(connection, made.name, made.schema), sragExtract: { schemaKey: made.evidence!.name },
    };
  }
  const info = await store.tableInfo(table);
  const { rows, rowsWithoutValues } = await countRows(connection, info.table, info.schema);
  const log = await logCounts(connection, info.table);
  const parent = (await store.childTables()).get(info.table);
  const children = [];
  for (const entity of info.schema.entities ?? []) {
    const child = childTableName(info.table, entity.name);
    children.push({ entity: entity.name, table: child, rows: Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quoteIdentifier(child)}`)).getRowsJS()[0]![0]) });
  }
  return {
    table: info.table, schema: info.schema, rows, rowsWithoutValues, log, statistics: info.statistics,
    ...(parent ? { parent: { table: parent.parent, entity: parent.entity } } : {}), ...(children.length ? { children } : {}),
  };
}

/** Rows, and rows whose every attribute is null: DuckDB counts. */
async function countRows(connection: DuckDBConnection, table: string, schema: RecordSchema): Promise<{ rows: number; rowsWithoutValues: number }> {
  const allNull = schema.attributes.map((attribute) => `${quoteIdentifier(attribute.name)} IS NULL`).join(' AND ') || 'false';
  const [rows, rowsWithoutValues] = ((await connection.runAndReadAll(`SELECT count(*), count(*) FILTER (WHERE ${allNull}) FROM ${quoteIdentifier(table)}`)).getRowsJS()[0] ?? [0, 0]).map(Number) as [number, number];
  return { rows, rowsWithoutValues };
}

/** Ingestion log entries of `logName` per status, in status order. */
async function logCounts(connection: DuckDBConnection, logName: string): Promise<Record<string, number>> {
  const rows = (await connection.runAndReadAll('SELECT status, count(*) FROM srag_ingestion_log WHERE table_name = $1 GROUP BY status ORDER BY status', [logName])).getRowsJS();
  return Object.fromEntries(rows.map(([status, count]) => [String(status), Number(count)]));
}
