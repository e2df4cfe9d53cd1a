import type { ColumnCoverage, SqlResult } from '../../../core/index.ts';
import type { CountedColumn } from './count-column-coverage.ts';
import type { SandboxTable } from './open-sandbox.ts';
import type { SandboxLimits } from './sandbox-limits.ts';

/** What the sandbox process runs: a generated query, or the coverage of one (see `countColumnCoverage`). */
export type SandboxWork =
  | { kind: 'query'; sql: string }
  | { kind: 'coverage'; table: string; selection: string | undefined; columns: CountedColumn[] };

/** One request to the sandbox process: the tables to open it over, its bounds, and the work. */
export interface SandboxProcessRequest {
  id: number;
  tables: SandboxTable[];
  limits: SandboxLimits;
  work: SandboxWork;
  /** The process's own directory, which holds this request's files (and no other request's). */
  directory: string;
  /**
   * Who asks (one SQL engine: one database's tables): a DuckDB kept from a request of another
   * asker is not used again, so nothing a query leaves in it (a random seed) reaches their queries.
   */
  owner: string;
}

/** An error as it crosses the process boundary: a `SragError`'s code and hint, a refusal's reason, or DuckDB's own message. */
export interface SandboxProcessError {
  message: string;
  code?: string;
  hint?: string;
  /** Set for a `SqlRejectedError`. */
  reason?: string;
}

export type SandboxProcessReply =
  | { id: number; result: SqlResult | ColumnCoverage[] }
  | { id: number; error: SandboxProcessError };
