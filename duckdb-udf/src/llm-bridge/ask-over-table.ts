import { askQuestion, describeResultCut, SragError, type ModelClient, type PromptLibrary } from '../../../core/index.ts';
import { DuckDbSqlEngine } from '../duckdb-sql-engine.ts';
import { queryColumnStatistics } from '../store/query-column-statistics.ts';
import type { AskReply, AskRequest } from './bridge-protocol.ts';
import { resolveAskTable } from './resolve-ask-table.ts';

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
 * `srag_ask` on the bridge side: the same core `askQuestion` that `srag ask` runs, over the same
 * sandboxed engine. The rows never travel as JSON: for each query, the engine asks the thread
 * blocked in the DuckDB callback (the only one that may query the database) to export the columns
 * the query names to Parquet, and reads that file in its sandbox. A table made by `srag_extract`
 * has no stored statistics; they are computed by DuckDB in the same kind of sandbox.
 */
export async function askOverTable({ client, prompts, request, model, exportTable, exportEvidence }: AskOverTableOptions): Promise<AskReply> {
  const table = resolveAskTable(request);
  const engine = new DuckDbSqlEngine({
    describeTable: async (name) => {
      if (name.toLowerCase() !== table.name.toLowerCase()) throw new SragError({ code: 'TABLE_NOT_FOUND', message: `srag_ask answers over "${table.name}" only, not "${name}"` });
      return { columns: table.columns, aliases: table.aliases };
    },
    exportTable,
    exportEvidence: (_table, attributes, file) => exportEvidence(table.evidenceName, attributes, file),
  });
  const statistics = table.statistics
    ?? await engine.readTable(table.name, table.schema.attributes.map((attribute) => attribute.name), (connection) => queryColumnStatistics(connection, table.name, table.schema));
  const result = await askQuestion({ client, prompts, sqlEngine: engine, table: table.name, schema: table.schema, statistics, question: request.question, model, coverage: engine });
  const objects = result.rows.map((row) => Object.fromEntries(result.columns.map((column, index) => [column, row[index]])));
  return {
    answer: result.answer,
    sql: result.sql,
    resultJson: JSON.stringify(objects),
    resultCut: describeResultCut(result.cut, result.rows.length) ?? null,
    coverage: result.coverage ?? null,
    promptTokens: result.usage.promptTokens,
    completionTokens: result.usage.completionTokens,
  };
}
