import { internalTableNames } from '../store/internal-table-names.ts';

/**
 * What a question needs of the database besides its rows (app's `TableSnapshot`), as four SQL
 * expressions that give JSON text: the tables of the main schema with their columns, the schemas
 * and statistics `srag ingest` and `srag import` keep (`srag_tables`), the schemas `srag_extract`
 * recorded, and what table choice needs — imports, links and the column values that match the
 * question's phrases — or, with a table named, the imports alone. `table` is an SQL expression
 * (NULL for none); `phrases` one of type VARCHAR[]. `srag_ask`'s macro passes them to
 * `srag_ask_json`; a session selects them itself (`readTableSnapshot`). `missing` names srag tables
 * the database lacks (one srag never wrote to, opened read-only): their expressions are NULL.
 * Without `links` the links are left out, for a reader that asks for those of its candidates only
 * (a database of hundreds of tables holds megabytes of them).
 */
export function tableSnapshotSql(table: string, phrases: string, missing: ReadonlySet<string> = new Set(), { links = true }: { links?: boolean } = {}): [tables: string, registered: string, extracted: string, choice: string] {
  const from = (name: string, sql: string) => (missing.has(name) || (!links && name === 'srag_table_links') ? 'NULL' : sql);
  return [
    `(SELECT to_json(list({'name': table_name, 'columns': columns} ORDER BY table_name)) FROM (
    SELECT table_name, list({'name': column_name, 'type': data_type} ORDER BY column_index) AS columns
    FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
      AND table_name NOT IN (${internalTableNames.map((name) => `'${name}'`).join(', ')})
    GROUP BY table_name))`,
    from('srag_tables', "(SELECT to_json(list({'name': table_name, 'schema_json': schema_json, 'statistics_json': statistics_json})) FROM srag_tables)"),
    from('srag_extract_schemas', "(SELECT to_json(list({'name': schema_key, 'schema_json': schema_json})) FROM srag_extract_schemas)"),
    `CASE WHEN ${table} IS NULL THEN to_json({
    'imports': ${from('srag_imports', "(SELECT list({'name': table_name, 'file': file, 'description': description}) FROM srag_imports)")},
    'links': ${from('srag_table_links', `(SELECT list({'table_name': table_name, 'column_name': column_name, 'other_table': other_table, 'other_column': other_column,
      'containment': containment, 'other_uniqueness': other_uniqueness, 'shared_values': shared_values}) FROM srag_table_links)`)},
    'mentions': ${from('srag_column_values', `(SELECT list({'table_name': table_name, 'column_name': column_name, 'phrase': phrase}) FROM (
      SELECT DISTINCT table_name, column_name, phrase FROM srag_column_values
      WHERE phrase IN (SELECT unnest(${phrases}))))`)}
  }) ELSE to_json({'imports': ${from('srag_imports', "(SELECT list({'name': table_name, 'file': file, 'description': description}) FROM srag_imports)")}}) END`,
  ];
}
