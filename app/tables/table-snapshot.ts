/**
 * What a question needs to know of a database besides its rows, read in one statement (the
 * DuckDB adapter's `tableSnapshotSql`; `srag_ask`'s macro reads the same): the tables with their
 * columns, the schemas and statistics `srag ingest` and `srag import` keep, the schemas
 * `srag_extract` recorded, and what table choice needs — imports, links between columns, and the
 * question's phrases found among column values. Names, types and counts only, never rows.
 */
export interface TableSnapshot {
  /** The tables of the database (srag's own left out), each with its columns in table order. */
  tables: Array<{ name: string; columns: Array<{ name: string; type: string }> }>;
  /** The schemas the database keeps: per table (`srag ingest`, `srag import`) or per `srag_extract` schema key. */
  knownSchemas: KnownSchema[];
  imports: Array<{ name: string; file: string; description: string | null }>;
  links: TableLinkRow[];
  /** Which of the question's phrases are values of which columns (empty when a table was named). */
  mentions: Array<{ table_name: string; column_name: string; phrase: string }>;
}

export interface KnownSchema {
  /** The table name (`srag_tables`) or the schema key (`srag_extract_schemas`). */
  name: string;
  schemaJson: string;
  statisticsJson: string | null;
  origin: 'srag_tables' | 'srag_extract';
}

/** A row of `srag_table_links`, as SQL hands it over. */
export interface TableLinkRow {
  table_name: string;
  column_name: string;
  other_table: string;
  other_column: string;
  containment: number;
  other_uniqueness: number;
  shared_values: number;
}

/**
 * The snapshot from the JSON texts of the four expressions that read it (tables, registered
 * schemas, `srag_extract`'s schemas, the choice catalog); each may be NULL, as on a database
 * srag never wrote to.
 */
export function readTableSnapshot([tables, registered, extracted, choice]: ReadonlyArray<string | null | undefined>): TableSnapshot {
  const knownSchemas: KnownSchema[] = [
    ...parseList<{ name: string; schema_json: string; statistics_json: string | null }>(registered)
      .map((entry) => ({ name: entry.name, schemaJson: entry.schema_json, statisticsJson: entry.statistics_json, origin: 'srag_tables' as const })),
    ...parseList<{ name: string; schema_json: string }>(extracted)
      .map((entry) => ({ name: entry.name, schemaJson: entry.schema_json, statisticsJson: null, origin: 'srag_extract' as const })),
  ];
  const catalog = JSON.parse(choice ?? '{}') as { imports?: TableSnapshot['imports'] | null; links?: TableLinkRow[] | null; mentions?: TableSnapshot['mentions'] | null };
  return { tables: parseList(tables), knownSchemas, imports: catalog.imports ?? [], links: catalog.links ?? [], mentions: catalog.mentions ?? [] };
}

function parseList<T>(json: string | null | undefined): T[] {
  if (!json) return [];
  const value = JSON.parse(json) as T[] | null;
  return Array.isArray(value) ? value : [];
}
