import { countNoun } from '../../core/index.ts';
import { importTable } from '../duckdb/catalog/import-table.ts';
import { SragStore } from '../duckdb/store/srag-store.ts';

export interface ImportCommandOptions {
  db: string;
  table?: string;
  replace?: boolean;
  description?: string;
}

/** `srag import FILE`: the user's CSV or Parquet file as a table questions can join with extracted records. */
export async function importCommand(file: string, options: ImportCommandOptions): Promise<number> {
  const store = await SragStore.open(options.db);
  try {
    const imported = await store.exclusive((connection) => importTable(connection, { file, databasePath: options.db, table: options.table, replace: options.replace, description: options.description }));
    const links = await store.exclusive(async (connection) => (await connection.runAndReadAll(
      `SELECT DISTINCT other_table FROM srag_table_links WHERE table_name = $1 ORDER BY other_table`, [imported.table])).getRowsJS().map((row) => String(row[0])));
    process.stdout.write(
      `${imported.table}: ${countNoun(imported.rows, 'row')}, ${countNoun(imported.columns.length, 'column')} (${imported.columns.map((column) => `${column.name} ${column.type}`).join(', ')}) ` +
      `imported from ${file} (${options.db})${links.length ? `; values meet ${links.join(', ')}` : ''}\n`,
    );
    return 0;
  } finally {
    store.close();
  }
}
