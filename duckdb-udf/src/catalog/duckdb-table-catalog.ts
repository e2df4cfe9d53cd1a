import type { DuckDBConnection } from '@duckdb/node-api';
import { relateChildTables, type TableCatalog } from '../../../core/index.ts';
import {
  catalogTablesQuery, readCatalogTable, readTableLink, readValueMention, tableLinksQuery,
  type CatalogTableRow, type TableLinkRow,
} from './read-catalog-rows.ts';

/**
 * The catalog port over a database srag keeps (`srag ask`): tables from `srag_tables` and
 * `srag_imports`, links from `srag_table_links`, and value matches looked up in DuckDB, so the
 * value phrases of hundreds of columns never cross into JavaScript. `use` runs work alone on the
 * connection (the store's `exclusive`).
 */
export function duckDbTableCatalog(use: <T>(work: (connection: DuckDBConnection) => Promise<T>) => Promise<T>): TableCatalog {
  const rows = <T>(sql: string) => use(async (connection) => (await connection.runAndReadAll(sql)).getRowObjectsJson() as unknown as T[]);
  return {
    tables: async () => relateChildTables((await rows<CatalogTableRow>(catalogTablesQuery)).map(readCatalogTable)),
    links: async (tables) => {
      if (tables.length === 0) return [];
      const list = tables.map((table) => `'${table.replace(/'/g, "''")}'`).join(', ');
      return (await rows<TableLinkRow>(`${tableLinksQuery} WHERE table_name IN (${list}) OR other_table IN (${list})`)).map(readTableLink);
    },
    findValues: async (phrases) => {
      if (phrases.length === 0) return [];
      const list = phrases.map((phrase) => `'${phrase.replace(/'/g, "''")}'`).join(', ');
      return (await rows<{ table_name: string; column_name: string; phrase: string }>(
        `SELECT DISTINCT table_name, column_name, phrase FROM srag_column_values WHERE phrase IN (${list})`)).map(readValueMention);
    },
  };
}
