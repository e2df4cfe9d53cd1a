import { internalTableNames } from '../store/internal-table-names.ts';
import type { AskCatalog, AskRequest, KnownSchema } from './bridge-protocol.ts';

/**
 * What a question over the database needs of it besides the question, as four SQL expressions
 * that give JSON text (catalog only, never rows): the tables of the main schema with their
 * columns, the schemas and statistics `srag ingest` stored (`srag_tables`), the schemas
 * `srag_extract` recorded, and what table choice needs — imports, links and the column values that
 * match the question's phrases — or, with a table named, the imports alone. `table` is an SQL
 * expression (NULL for none); `phrases` one of type VARCHAR[] or JSON array. `srag_ask`'s macro
 * passes them to `srag_ask_json`; `srag serve` selects them itself (`askOverExtractTables`).
 */
export function askCatalogSql(table: string, phrases: string): [tables: string, registered: string, extracted: string, choice: string] {
  return [
    `(SELECT to_json(list({'name': table_name, 'columns': columns} ORDER BY table_name)) FROM (
    SELECT table_name, list({'name': column_name, 'type': data_type} ORDER BY column_index) AS columns
    FROM duckdb_columns()
    WHERE database_name = current_database() AND schema_name = 'main' AND NOT internal
      AND table_name NOT IN (${internalTableNames.map((name) => `'${name}'`).join(', ')})
    GROUP BY table_name))`,
    "(SELECT to_json(list({'name': table_name, 'schema_json': schema_json, 'statistics_json': statistics_json})) FROM srag_tables)",
    "(SELECT to_json(list({'name': schema_key, 'schema_json': schema_json})) FROM srag_extract_schemas)",
    `CASE WHEN ${table} IS NULL THEN to_json({
    'imports': (SELECT list({'name': table_name, 'file': file, 'description': description}) FROM srag_imports),
    'links': (SELECT list({'table_name': table_name, 'column_name': column_name, 'other_table': other_table, 'other_column': other_column,
      'containment': containment, 'other_uniqueness': other_uniqueness, 'shared_values': shared_values}) FROM srag_table_links),
    'mentions': (SELECT list({'table_name': table_name, 'column_name': column_name, 'phrase': phrase}) FROM (
      SELECT DISTINCT table_name, column_name, phrase FROM srag_column_values
      WHERE phrase IN (SELECT unnest(${phrases}))))
  }) ELSE to_json({'imports': (SELECT list({'name': table_name, 'file': file, 'description': description}) FROM srag_imports)}) END`,
  ];
}

/** The request `askOverTable` answers, from the JSON texts of `askCatalogSql`'s four expressions (each may be NULL). */
export function readAskRequest(question: string, table: string | null, [tables, registered, extracted, choice]: Array<string | null | undefined>, extend: boolean): AskRequest {
  const knownSchemas: KnownSchema[] = [
    ...parseList<{ name: string; schema_json: string; statistics_json: string | null }>(registered).map((entry) => ({ name: entry.name, schemaJson: entry.schema_json, statisticsJson: entry.statistics_json, origin: 'srag_tables' as const })),
    ...parseList<{ name: string; schema_json: string }>(extracted).map((entry) => ({ name: entry.name, schemaJson: entry.schema_json, statisticsJson: null, origin: 'srag_extract' as const })),
  ];
  const choiceCatalog = JSON.parse(choice ?? '{}') as Partial<Record<keyof AskCatalog, unknown[] | null>>;
  const catalog: AskCatalog = {
    imports: (choiceCatalog.imports ?? []) as AskCatalog['imports'],
    links: (choiceCatalog.links ?? []) as AskCatalog['links'],
    mentions: (choiceCatalog.mentions ?? []) as AskCatalog['mentions'],
  };
  return { question, table, tables: parseList(tables), knownSchemas, catalog, extend };
}

function parseList<T>(json: string | null | undefined): T[] {
  if (!json) return [];
  const value = JSON.parse(json) as T[] | null;
  return Array.isArray(value) ? value : [];
}
