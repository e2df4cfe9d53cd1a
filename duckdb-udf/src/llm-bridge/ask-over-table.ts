import { askQuestion, chooseTables, describeResultCut, SragError, type CatalogTable, type ModelClient, type PromptLibrary, type TableCatalog } from '../../../core/index.ts';
import { readTableLink, readValueMention } from '../catalog/read-catalog-rows.ts';
import { DuckDbSqlEngine } from '../duckdb-sql-engine.ts';
import { queryColumnStatistics } from '../store/query-column-statistics.ts';
import type { AskReply, AskRequest } from './bridge-protocol.ts';
import { askCandidates, resolveAskTable, type AskTable } from './resolve-ask-table.ts';

export interface AskOverTableOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  request: AskRequest;
  model: string;
  /** Has the thread that owns the database write `columns` of `table` to a Parquet file at `file`. */
  exportTable: (table: string, columns: string[], file: string) => Promise<void>;
  /** The same for the evidence kept under `table`'s name in `srag_evidence`, for coverage. */
  exportEvidence: (table: string, attributes: string[], file: string) => Promise<void>;
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
export async function askOverTable({ client, prompts, request, model, exportTable, exportEvidence }: AskOverTableOptions): Promise<AskReply> {
  const candidates = request.table === null ? askCandidates(request) : [resolveAskTable(request)];
  if (candidates.length === 0) resolveAskTable(request);
  const byName = new Map(candidates.map((table) => [table.name.toLowerCase(), table]));
  const engine = new DuckDbSqlEngine({
    describeTable: async (name) => {
      const table = byName.get(name.toLowerCase());
      if (!table) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `srag_ask answers over ${candidates.map((candidate) => `"${candidate.name}"`).join(', ')} only, not "${name}"` });
      return { columns: table.columns, aliases: table.aliases };
    },
    exportTable,
    exportEvidence: (table, attributes, file) => exportEvidence(byName.get(table.toLowerCase())?.evidenceName ?? table, attributes, file),
  });
  const catalogTables = candidates.map((table) => catalogTable(request, table));
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
  const result = await askQuestion({ client, prompts, sqlEngine: engine, tables, joins: choice.joins, question: request.question, model, coverage: engine });
  const objects = result.rows.map((row) => Object.fromEntries(result.columns.map((column, index) => [column, row[index]])));
  return {
    answer: result.answer,
    sql: result.sql,
    tables: result.tables,
    resultJson: JSON.stringify(objects),
    resultCut: describeResultCut(result.cut, result.rows.length) ?? null,
    coverage: result.coverage ?? null,
    promptTokens: result.usage.promptTokens,
    completionTokens: result.usage.completionTokens,
  };
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
