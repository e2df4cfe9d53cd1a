/**
 * srag for DuckDB under Node: the library entry. `openSragDatabase` opens a DuckDB database with
 * the srag SQL functions registered (srag_extract, srag_record_type, srag_ask, srag_usage);
 * `openSqlSession` runs one on a worker thread so the caller's thread can cancel (Ctrl-C).
 */
export { openSragDatabase, type OpenSragDatabaseOptions, type SragDatabase } from './sql-functions/harness/open-srag-database.ts';
export { openSqlSession, SqlSessionError, type SqlSession } from './sql-functions/harness/sql-session.ts';
export { splitSqlScript, type ScriptStatement } from './sql-functions/harness/split-sql-script.ts';
export { cancelThroughControlBuffer, createControlBuffer } from './sql-functions/llm-bridge/control-buffer.ts';
export type { ExtractedRow, OnError } from './sql-functions/llm-bridge/bridge-protocol.ts';
export { SragStore, type TableInfo } from './duckdb/store/srag-store.ts';
export { openSession, type Session } from './session/open-session.ts';
export { OpenAiLanguageModel, type OpenAiLanguageModelSettings } from './runtime/openai-language-model.ts';
export { DuckDbSqlEngine } from './duckdb/duckdb-sql-engine.ts';
export { readSettings, type SragSettings } from './runtime/read-settings.ts';
export { loadPromptLibrary } from './runtime/load-prompt-library.ts';

// srag's use cases over one database file (what the CLI, `srag serve` and `srag mcp` call), the
// JSON every machine-readable surface returns, and the errors they throw with their fix as data.
export { openSrag, type Srag, type TableDescription, type TableSchema } from './session/open-srag.ts';
export type { OpenSessionOptions } from './session/open-session.ts';
export type { ValueExplanation } from './duckdb/explain-value.ts';
export type { TableStats } from './duckdb/read-table-stats.ts';
export type { IngestListeners, IngestOptions, IngestRequest } from './session/ingest.ts';
export type { IngestEstimate, IngestOutcome, IngestReport } from './session/ingest-outcome.ts';
export { ingestOutcomeJson } from './session/ingest-outcome-json.ts';
export { answerJson, type Answer, type AskOptions, type ExtensionDryRun, type TableMaker } from '../app/index.ts';
export { describeCoverage, redactSecrets, SragError, type ColumnCoverage, type ErrorFix, type SragErrorCode } from '../core/index.ts';
export { secretSettings } from './runtime/read-settings.ts';
