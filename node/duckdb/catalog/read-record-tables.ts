import type { DuckDBConnection } from '@duckdb/node-api';
import { recordTables, type RecordTable } from '../../../app/index.ts';
import { SragError } from '../../../core/index.ts';
import { readTableSnapshotOver } from './read-table-snapshot.ts';

/**
 * Every table a question may read, whatever made it (app's `recordTables` over a snapshot without
 * a question): for the requests that name a table outside a question (`srag why`, `srag stats`,
 * the server's `/schema`, `/records`, `/document`, `/why`).
 */
export async function readRecordTables(connection: DuckDBConnection): Promise<RecordTable[]> {
  return recordTables(await readTableSnapshotOver(connection, '', undefined));
}

/** Whether a table made from `srag_extract` kept `content_hash`, by which its rows find their documents' evidence and files. */
export function keptContentHash(table: RecordTable): boolean {
  return table.columns.some((column) => column.name === 'content_hash');
}

/** What a table made from `srag_extract` without its `content_hash` column cannot give: a row's evidence or file. */
export function contentHashMissing(table: string): SragError {
  return new SragError({
    code: 'INPUT_INVALID',
    message: `table ${table} has no content_hash column, by which a row of a table made from srag_extract finds its document's evidence`,
    hint: 'keep it when you make the table: CREATE TABLE … AS SELECT * FROM srag_extract(…), or name content_hash among the columns',
  });
}
