import type { ModelUsage, SqlResult, SragErrorCode } from '../../../core/index.ts';

export type SqlSessionRequest =
  | { id: number; type: 'run'; sql: string }
  | { id: number; type: 'usage' }
  | { id: number; type: 'interrupt' }
  | { id: number; type: 'close' };

export type SqlSessionReply =
  | { id: number; ok: true; result?: SqlResult; returnsRows?: boolean; usage?: ModelUsage[] }
  /** `fromFunction`: DuckDB's error carries an srag function's failure (its words are in `message`, its code in `code`). */
  | { id: number; ok: false; error: { message: string; code?: SragErrorCode; hint?: string; fromFunction?: boolean } };

export interface SqlSessionWorkerData {
  path: string;
  control: SharedArrayBuffer;
  environment: Record<string, string | undefined>;
  progress: boolean;
}
