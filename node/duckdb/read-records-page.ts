import type { DuckDBConnection } from '@duckdb/node-api';
import type { RecordTable, TableMaker } from '../../app/index.ts';
import type { SqlValue } from '../../core/index.ts';
import { friendlyPath } from '../runtime/friendly-path.ts';
import { extractedRowsFilter, servedTable } from './catalog/extracted-document.ts';
import { quoteIdentifier } from './quote-identifier.ts';
import { readSqlResult } from './read-sql-result.ts';

/** A page of a table's records, as `GET /records` serves them and the page browses them. */
export interface RecordsPage {
  table: string;
  madeBy: TableMaker;
  /** The schema's attributes, then (for a table with documents) the item's place in its list and the document, last. */
  columns: string[];
  rows: SqlValue[][];
  /** The records the table holds (of documents extracted into it), not only this page's. */
  total: number;
  /** Each row's document as srag shows a path; empty for an imported table. */
  labels: string[];
  /** The column naming each row's document (`_source`, or `filename` for a table made by srag_extract); null for an imported table. */
  document: string | null;
  /** For a child entity's table: the column giving the item's place in its document's list (`_position`). */
  position: string | null;
}

/**
 * A page of `table`'s records, ordered by document (an imported table: by all its columns). Only
 * rows of documents extracted into the table are shown (see `findExtractedDocument`): a document
 * that failed leaves nothing to browse.
 */
export async function readRecordsPage(connection: DuckDBConnection, table: RecordTable, { offset, limit }: { offset: number; limit: number }): Promise<RecordsPage> {
  const quoted = quoteIdentifier(table.name);
  const attributes = table.schema.attributes.map((attribute) => `t.${quoteIdentifier(attribute.name)}`);
  const page = { offset: Math.max(0, Math.trunc(offset)), limit: Math.max(1, Math.trunc(limit)) };
  if (table.madeBy === 'srag import') {
    // The user's own rows: no documents behind them, so no document column and no labels.
    const total = Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quoted}`)).getRowsJS()[0]![0]);
    const rows = readSqlResult(await connection.runAndReadAll(`SELECT ${attributes.join(', ')} FROM ${quoted} t ORDER BY ALL LIMIT ${page.limit} OFFSET ${page.offset}`));
    return { table: table.name, madeBy: table.madeBy, columns: rows.columns, rows: rows.rows, total, labels: [], document: null, position: null };
  }
  const document = table.madeBy === 'srag_extract' ? 'filename' : '_source';
  const position = table.parent ? '_position' : null;
  const keys = [...(position ? [position] : []), document].map((column) => `t.${quoteIdentifier(column)}`);
  const { condition, parameter } = extractedRowsFilter(servedTable(table));
  const total = Number((await connection.runAndReadAll(`SELECT count(*) FROM ${quoted} t WHERE ${condition}`, [parameter])).getRowsJS()[0]![0]);
  const rows = readSqlResult(await connection.runAndReadAll(
    `SELECT ${[...attributes, ...keys].join(', ')} FROM ${quoted} t WHERE ${condition} ORDER BY ${[...keys].reverse().join(', ')} LIMIT ${page.limit} OFFSET ${page.offset}`,
    [parameter]));
  return {
    table: table.name, madeBy: table.madeBy, columns: rows.columns, rows: rows.rows, total,
    labels: rows.rows.map((row) => friendlyPath(String(row.at(-1)))), document, position,
  };
}
