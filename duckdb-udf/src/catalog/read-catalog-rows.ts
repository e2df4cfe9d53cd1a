import { parseRecordSchema, type CatalogTable, type ColumnStatistics, type TableLink, type ValueMention } from '../../../core/index.ts';

/** A row of `srag_tables` joined with `srag_imports`, as SQL hands it over (also inside `srag_ask`'s JSON). */
export interface CatalogTableRow {
  name: string;
  schema_json: string;
  statistics_json: string | null;
  file: string | null;
  description: string | null;
}

export interface TableLinkRow {
  table_name: string;
  column_name: string;
  other_table: string;
  other_column: string;
  containment: number;
  other_uniqueness: number;
  shared_values: number;
}

/** The query behind `CatalogTableRow`: srag's tables that still exist. */
export const catalogTablesQuery = `
SELECT t.table_name AS name, t.schema_json, t.statistics_json, i.file, i.description
FROM srag_tables t LEFT JOIN srag_imports i ON i.table_name = t.table_name
WHERE t.table_name IN (SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main')
ORDER BY t.table_name`;

export const tableLinksQuery = 'SELECT table_name, column_name, other_table, other_column, containment, other_uniqueness, shared_values FROM srag_table_links';

export function readCatalogTable(row: CatalogTableRow): CatalogTable {
  return {
    name: row.name,
    schema: parseRecordSchema(JSON.parse(row.schema_json), `table "${row.name}"`),
    statistics: row.statistics_json ? (JSON.parse(row.statistics_json) as ColumnStatistics[]) : [],
    origin: row.file === null ? 'extracted' : 'imported',
    ...(row.file !== null ? { importedFrom: row.file } : {}),
    ...(row.description ? { description: row.description } : {}),
  };
}

export function readTableLink(row: TableLinkRow): TableLink {
  return {
    table: row.table_name, column: row.column_name, otherTable: row.other_table, otherColumn: row.other_column,
    containment: Number(row.containment), otherUniqueness: Number(row.other_uniqueness), sharedValues: Number(row.shared_values),
  };
}

export function readValueMention(row: { table_name: string; column_name: string; phrase: string }): ValueMention {
  return { table: row.table_name, column: row.column_name, phrase: row.phrase };
}
