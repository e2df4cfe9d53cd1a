import { ask, extensionJson, tableGrower, uniqueColumnNames, type GrowthRuntime, type TableExporter } from '../../../app/index.ts';
import { describeResultCut, type ModelClient, type PromptLibrary, type ResponseCache, type RunProgress } from '../../../core/index.ts';
import { DuckDbSqlEngine } from '../../duckdb/duckdb-sql-engine.ts';
import type { AskReply, AskRequest } from './bridge-protocol.ts';
import { bridgeGrowthStore } from './bridge-growth-store.ts';
import type { JournalChannel } from './journal-channel.ts';
import { resultRowsJson } from './result-rows-json.ts';

export interface AnswerAskRequestOptions {
  request: AskRequest;
  client: ModelClient;
  prompts: PromptLibrary;
  model: string;
  /** Has the thread blocked in the DuckDB callback (the only one that may query the database) write what the sandbox reads. */
  exporter: TableExporter;
  /** For `extend := true`: growing runs here, its writes journaled (see `bridgeGrowthStore`). */
  growth: { runtime: GrowthRuntime; journal: JournalChannel; cache: ResponseCache; onStart?: (documents: number) => void };
  onWarning: (line: string) => void;
  onProgress: (progress: RunProgress) => void;
  cancellation: { readonly aborted: boolean };
}

/**
 * `srag_ask` on the bridge side: app's `ask`, the pipeline `srag ask` runs, over the snapshot the
 * macro read and exports run by the blocked thread, in the same sandbox. The rows never travel as
 * JSON into the worker: each query's columns are written to Parquet by DuckDB and read there.
 */
export async function answerAskRequest({ request, client, prompts, model, exporter, growth, onWarning, onProgress, cancellation }: AnswerAskRequestOptions): Promise<AskReply> {
  let started = false;
  const answer = await ask({
    client, prompts, model, database: 'this database',
    readTables: async () => request.snapshot,
    exporter,
    openEngine: (source) => new DuckDbSqlEngine(source),
    grower: tableGrower(growth.runtime, bridgeGrowthStore(growth.journal, exporter, growth.cache)),
  }, request.question, {
    ...(request.table === null ? {} : { table: request.table }),
    // No terminal to ask on in SQL: a back-fill goes ahead, its estimate in `schema_extension`.
    ...(request.extend ? {
      extend: {
        onNotice: (line) => { if (line.startsWith('warning: ')) onWarning(line.slice('warning: '.length)); },
        onProgress: (progress) => {
          if (!started) growth.onStart?.(progress.total);
          started = true;
          onProgress(progress);
        },
        cancellation,
      },
    } : {}),
    hybrid: false,
  });
  return {
    answer: answer.answer,
    sql: answer.sql,
    tables: answer.tables,
    resultJson: resultRowsJson(answer.columns, answer.rows),
    columns: uniqueColumnNames(answer.columns),
    resultCut: describeResultCut(answer.cut, answer.rows.length) ?? null,
    coverage: answer.coverage ?? null,
    promptTokens: answer.usage.promptTokens,
    completionTokens: answer.usage.completionTokens,
    schemaExtension: answer.extension ? extensionJson(answer.extension) : null,
  };
}
