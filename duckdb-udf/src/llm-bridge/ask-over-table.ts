import { askQuestion, chooseTables, describeResultCut, parseRecordSchema, relateChildTables, SragError, type CatalogTable, type ModelClient, type PromptLibrary, type TableCatalog } from '../../../core/index.ts';
import { readTableLink, readValueMention } from '../catalog/read-catalog-rows.ts';
import { DuckDbSqlEngine } from '../duckdb-sql-engine.ts';
import { queryColumnStatistics } from '../store/query-column-statistics.ts';
import type { AskReply, AskRequest, SchemaExtensionReply } from './bridge-protocol.ts';
import type { AskTableExtension } from './extend-ask-table.ts';
import { askCandidates, resolveAskTable, type AskTable } from './resolve-ask-table.ts';
import { resultRowsJson, uniqueColumnNames } from './result-rows-json.ts';

export interface AskOverTableOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  request: AskRequest;
  model: string;
  /** Has the thread that owns the database write `columns` of `table` to a Parquet file at `file`. */
  exportTable: (table: string, columns: string[], file: string) => Promise<void>;
  /** The same for the evidence kept under `table`'s name in `srag_evidence`, for coverage; keyed to the rows of `copy` when given. */
  exportEvidence: (table: string, attributes: string[], file: string, copy?: string) => Promise<void>;
  /** For `request.extend`: grows the table first (`extendAskTable`, with the bridge's extraction client and journal). */
  extend: (table: AskTable) => Promise<AskTableExtension>;
}

/**
 * `srag_ask` on the bridge side: the same core `chooseTables` and `askQuestion` that `srag ask`
 * runs, over the same sandboxed engine. `srag_ask(question, 'table')` answers from that table;
 * `srag_ask(question)` chooses among the database's record and imported tables from the catalog
 * rows the macro handed over. The rows never travel as JSON: for each query, the engine asks the
 * thread blocked in the DuckDB callback (the only one that may query the database) to export the
 * columns the query names to Parquet, and reads that file in its sandbox, which holds exactly the
 * chosen tables. A table made by `srag_extract` has no stored statistics; they are computed by
 * DuckDB in the same kind of sandbox.
 */
export async function askOverTable({ client, prompts, request, model, exportTable, exportEvidence, extend }: AskOverTableOptions): Promise<AskReply> {
  let candidates = request.table === null ? askCandidates(request) : [resolveAskTable(request)];
  if (candidates.length === 0) resolveAskTable(request);
  let schemaExtension: SchemaExtensionReply | null = null;
  if (request.extend) {
    // The question is asked of the grown table alone, its back-filled values laid over the committed ones.
    const extension = await extend(tableToExtend(request, candidates));
    candidates = [extension.table];
    exportTable = extension.exportTable;
    exportEvidence = extension.exportEvidence;
    schemaExtension = extension.reply;
  }
  const byName = new Map(candidates.map((table) => [table.name.toLowerCase(), table]));
  const engine = new DuckDbSqlEngine({
    describeTable: async (name) => {
      const table = byName.get(name.toLowerCase());
      if (!table) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `srag_ask answers over ${candidates.map((candidate) => `"${candidate.name}"`).join(', ')} only, not "${name}"` });
      return { columns: table.columns, aliases: table.aliases };
    },
    exportTable,
    exportEvidence: (table, attributes, file) => {
      const asked = byName.get(table.toLowerCase());
      return exportEvidence(asked?.evidenceName ?? table, attributes, file, asked?.evidenceCopy);
    },
  });
  const catalogTables = relateChildTables(candidates.map((table) => catalogTable(request, table)), parentSchemas(request));
  const choice = catalogTables.length === 1
    ? { tables: catalogTables, joins: [] }
    : await chooseTables({ question: request.question, catalog: snapshotCatalog(request, catalogTables) });
  const tables: CatalogTable[] = [];
  for (const chosen of choice.tables) {
    const source = byName.get(chosen.name.toLowerCase())!;
    const statistics = source.statistics
      ?? await engine.readTable(source.name, source.schema.attributes.map((attribute) => attribute.name), (connection) => queryColumnStatistics(connection, source.name, source.schema));
    tables.push({ ...chosen, statistics });
  }
  const result = await askQuestion({ client, prompts, sqlEngine: engine, tables, joins: choice.joins, question: request.question, model, coverage: engine }).catch((error: unknown) => {
    if (!SragError.isInstance(error) || error.code !== 'ATTRIBUTES_MISSING' || tables.length !== 1) throw error;
    throw new SragError({ code: error.code, message: error.message, hint: `add them (extracting only them from every document) with: ${extendExample(request.question, tables[0]!.name)}`, cause: error });
  });
  return {
    answer: result.answer,
    sql: result.sql,
    tables: result.tables,
    resultJson: resultRowsJson(result.columns, result.rows),
    columns: uniqueColumnNames(result.columns),
    resultCut: describeResultCut(result.cut, result.rows.length) ?? null,
    coverage: result.coverage ?? null,
    promptTokens: result.usage.promptTokens,
    completionTokens: result.usage.completionTokens,
    schemaExtension,
  };
}

/**
 * The table `srag_ask(…, extend := true)` grows: one `srag ingest` made (its documents are known by
 * the ingestion log), named or the database's only candidate.
 */
function tableToExtend(request: AskRequest, candidates: AskTable[]): AskTable {
  const example = (table: string) => extendExample(request.question, table);
  if (candidates.length > 1) {
    throw new SragError({ code: 'INPUT_INVALID', message: `srag_ask with extend := true grows one table, and this database has several (${candidates.map((table) => table.name).join(', ')})`, hint: `name it: ${example(candidates[0]!.name)}` });
  }
  const table = candidates[0]!;
  const ingested = request.knownSchemas.some((known) => known.origin === 'srag_tables' && known.name.toLowerCase() === table.name.toLowerCase())
    && !request.catalog.imports.some((entry) => entry.name.toLowerCase() === table.name.toLowerCase());
  if (!ingested) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `srag_ask with extend := true grows tables srag ingest made, whose documents it knows; "${table.name}" was made by ${request.catalog.imports.some((entry) => entry.name.toLowerCase() === table.name.toLowerCase()) ? 'srag import' : 'srag_extract'}`,
      hint: `extract the attributes with srag_extract and a schema that names them, or ingest the documents with srag ingest and ask again`,
    });
  }
  return table;
}

function catalogTable(request: AskRequest, table: AskTable): CatalogTable {
  const imported = request.catalog.imports.find((entry) => entry.name.toLowerCase() === table.name.toLowerCase());
  return {
    name: table.name,
    schema: table.schema,
    statistics: table.statistics ?? [],
    origin: imported ? 'imported' : 'extracted',
    ...(imported ? { importedFrom: imported.file } : {}),
    ...(imported?.description ? { description: imported.description } : {}),
  };
}

/** The schemas of the tables `srag ingest` made that declare child entities: where a child table finds its parent. */
function parentSchemas(request: AskRequest): Array<{ name: string; schema: CatalogTable['schema'] }> {
  return request.knownSchemas
    .filter((known) => known.origin === 'srag_tables' && known.schemaJson.includes('"entities"'))
    .map((known) => ({ name: known.name, schema: parseRecordSchema(JSON.parse(known.schemaJson), `table "${known.name}"`) }));
}

/** The catalog port over what the macro read: the value matches were found in DuckDB for this very question. */
function snapshotCatalog(request: AskRequest, tables: CatalogTable[]): TableCatalog {
  return {
    tables: async () => tables,
    links: async (names) => {
      const wanted = new Set(names);
      return request.catalog.links.map(readTableLink).filter((link) => wanted.has(link.table) || wanted.has(link.otherTable));
    },
    findValues: async (phrases) => {
      const wanted = new Set(phrases);
      return request.catalog.mentions.filter((mention) => wanted.has(mention.phrase)).map(readValueMention);
    },
  };
}

/** The statement that asks `question` of `table` with the attributes it needs added. */
function extendExample(question: string, table: string): string {
  return `SELECT * FROM srag_ask('${question.replace(/'/g, "''")}', '${table.replace(/'/g, "''")}', extend := true)`;
}
