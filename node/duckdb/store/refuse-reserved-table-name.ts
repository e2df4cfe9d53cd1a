import { SragError } from '../../../core/index.ts';
import { internalTableNames } from './internal-table-names.ts';

/**
 * Refuses a record table named like one of srag's own (`srag_serve_jobs`, `srag_evidence`, any
 * `srag_…`): made by ingest or import, it would stand where srag keeps its bookkeeping, and a later
 * `srag serve` or ingest could not open that database. Its fix is another name, worded by each edge.
 */
export function refuseReservedTableName(table: string): void {
  const lowered = table.toLowerCase();
  if (!lowered.startsWith('srag_') && !internalTableNames.includes(lowered)) return;
  throw new SragError({ code: 'INPUT_INVALID', message: `"${table}" is a name srag keeps for its own tables`, hint: 'choose another name', fix: { kind: 'rename-table', table } });
}
