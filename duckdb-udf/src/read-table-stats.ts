import type { DuckDBConnection } from '@duckdb/node-api';
import { childTableName, type ColumnStatistics, type RecordSchema } from '../../core/index.ts';
import { quoteIdentifier } from './quote-identifier.ts';
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
}

/**
 * A table's row counts, ingestion log counts and stored statistics (what `srag stats` and
 * `GET /stats` show). `connection` reads the rows: the store's own for the CLI, a reader of its own
 * for the server, so a read never lands inside an ingest's transaction. DuckDB counts; no row
 * crosses into JavaScript.
 */
export async function readTableStats(store: SragStore, connection: DuckDBConnection, table?: string): Promise<TableStats> {
  const info = await store.tableInfo(table);
  const allNull = info.schema.attributes.map((attribute) => `${quoteIdentifier(attribute.name)} IS NULL`).join(' AND ') || 'false';
  const [rows, rowsWithoutValues] = ((await connection.runAndReadAll(`SELECT count(*), count(*) FILTER (WHERE ${allNull}) FROM ${quoteIdentifier(info.table)}`)).getRowsJS()[0] ?? [0, 0]).map(Number) as [number, number];
  const log = (await connection.runAndReadAll(
    'SELECT status, count(*) FROM srag_ingestion_log WHERE table_name = $1 GROUP BY status ORDER BY status', [info.table])).getRowsJS()
    .map(([status, count]) => [String(status), Number(count)]);
  const parent = (await store.childTables()).get(info.table);
  const children = [];
  for (const entity of info.schema.entities ?? []) {
    const child = childTableName(info.table, entity.name);
    children.push({ entity: entity.name, table: child, rows: Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quoteIdentifier(child)}`)).getRowsJS()[0]![0]) });
  }
  return {
    table: info.table, schema: info.schema, rows, rowsWithoutValues, log: Object.fromEntries(log), statistics: info.statistics,
    ...(parent ? { parent: { table: parent.parent, entity: parent.entity } } : {}), ...(children.length ? { children } : {}),
  };
}
