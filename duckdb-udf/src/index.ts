/**
 * srag for DuckDB under Node: the library entry. `openSragDatabase` opens a DuckDB database with
 * the srag SQL functions registered (srag_extract, srag_record_type, srag_ask, srag_usage);
 * `openSqlSession` runs one on a worker thread so the caller's thread can cancel (Ctrl-C).
 */
export { openSragDatabase, type OpenSragDatabaseOptions, type SragDatabase } from './harness/open-srag-database.ts';
export { openSqlSession, SqlSessionError, type SqlSession } from './harness/sql-session.ts';
export { splitSqlScript, type ScriptStatement } from './harness/split-sql-script.ts';
export { cancelThroughControlBuffer, createControlBuffer } from './llm-bridge/control-buffer.ts';
export type { ExtractedRow, OnError } from './llm-bridge/bridge-protocol.ts';
export { SragStore, type TableInfo } from './store/srag-store.ts';
export { openSession, type Session } from './open-session.ts';
export { OpenAiLanguageModel, type OpenAiLanguageModelSettings } from './openai-language-model.ts';
export { DuckDbSqlEngine } from './duckdb-sql-engine.ts';
export { readSettings, type SragSettings } from './read-settings.ts';
export { loadPromptLibrary } from './load-prompt-library.ts';

// srag's use cases over one database file (what the CLI, `srag serve` and `srag mcp` call), the
// JSON every machine-readable surface returns, and the errors they throw with their fix as data.
export { openSrag, type Srag, type TableDescription, type TableSchema } from './open-srag.ts';
export type { OpenSessionOptions } from './open-session.ts';
export type { ValueExplanation } from './explain-value.ts';
export type { TableStats } from './read-table-stats.ts';
export { answerJson, type Answer, type AskOptions, type ExtensionDryRun, type TableMaker } from '../../app/index.ts';
export { describeCoverage, redactSecrets, SragError, type ColumnCoverage, type ErrorFix, type SragErrorCode } from '../../core/index.ts';
export { secretSettings } from './read-settings.ts';
