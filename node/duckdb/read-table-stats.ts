import type { DuckDBConnection } from '@duckdb/node-api';
import { childTableName, type ColumnStatistics, type RecordSchema } from '../../core/index.ts';
import { findRecordTable, onlyRecordTable } from '../../app/index.ts';
import { readRecordTables } from './catalog/read-record-tables.ts';
import { quoteIdentifier } from './quote-identifier.ts';
import { queryColumnStatistics } from './store/query-column-statistics.ts';

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
 * A table's row counts, ingestion log counts and statistics (what `srag stats` and `GET /stats`
 * show), for any table a question may read: the named one, or the only table of documents. A
 * table made from `srag_extract` keeps no statistics: they are computed from its rows, and its log
 * is its schema's. DuckDB counts; no row crosses into JavaScript.
 */
export async function readTableStats(connection: DuckDBConnection, table: string | undefined, database: string): Promise<TableStats> {
  const tables = await readRecordTables(connection);
  const found = table === undefined ? onlyRecordTable(tables, database) : findRecordTable(tables, table, database);
  const { rows, rowsWithoutValues } = await countRows(connection, found.name, found.schema);
  // A child's items are its parent's documents': the log is the parent's.
  const log = found.evidence && !found.parent ? await logCounts(connection, found.evidence.name) : {};
  const children = [];
  for (const entity of found.schema.entities ?? []) {
    const child = childTableName(found.name, entity.name);
    children.push({ entity: entity.name, table: child, rows: Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quoteIdentifier(child)}`)).getRowsJS()[0]![0]) });
  }
  return {
    table: found.name, schema: found.schema, rows, rowsWithoutValues, log,
    statistics: found.statisticsKept ? found.statistics : await queryColumnStatistics(connection, found.name, found.schema),
    ...(found.parent ? { parent: { table: found.parent.table, entity: found.parent.entity.name } } : {}),
    ...(children.length ? { children } : {}),
    ...(found.madeBy === 'srag_extract' ? { sragExtract: { schemaKey: found.evidence!.name } } : {}),
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
