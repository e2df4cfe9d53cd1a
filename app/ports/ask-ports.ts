import type { HybridReading, ModelClient, PromptLibrary } from '../../core/index.ts';
import type { RecordTable } from '../tables/record-table.ts';
import type { TableLinkRow, TableSnapshot } from '../tables/table-snapshot.ts';
import type { AskEngine } from './ask-engine.ts';
import type { TableGrower } from './table-grower.ts';
import type { TableExporter, TableSource } from './table-source.ts';

/**
 * What a question needs of its runtime. The session of `srag ask`, `srag serve` and `srag mcp`
 * reads the database over a connection of its own; `srag_ask` in SQL over the thread blocked in
 * DuckDB's callback. The pipeline is the same (`ask`).
 */
export interface AskPorts {
  /** SRAG_MODEL's client: SQL, the answer, the target schema. */
  client: ModelClient;
  prompts: PromptLibrary;
  model: string;
  /** The database as messages name it (its file). */
  database: string;
  /** The database's tables as the question sees them, read in one statement (phrases matched only when no table is named). */
  readTables(question: string, table: string | undefined): Promise<TableSnapshot>;
  /**
   * The links between columns with a side in `tables`, for a runtime whose snapshot leaves them out
   * (hundreds of tables hold megabytes of links; table choice needs its candidates' only).
   */
  readLinks?(tables: string[]): Promise<TableLinkRow[]>;
  exporter: TableExporter;
  /** A sandboxed engine over `source` (fresh per question: it holds exactly the chosen tables). */
  openEngine(source: TableSource): AskEngine;
  /** Grows a table made by `srag ingest` for a question; absent where that cannot happen. */
  grower?: TableGrower;
  /** How the hybrid path reads the documents of the chosen tables made by `srag ingest`; absent: the SQL path only. */
  hybridReading?(tables: RecordTable[]): HybridReading;
}
