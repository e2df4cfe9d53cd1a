import type { DuckDBConnection } from '@duckdb/node-api';
import { SragError } from '../../../core/index.ts';
import { recordTables, type RecordTable } from '../../../app/index.ts';
import { readTableSnapshotOver } from './read-table-snapshot.ts';

/**
 * The tables made from `srag_extract`'s rows (`CREATE TABLE hotels AS SELECT * FROM
 * srag_extract(…)`), as every question knows them (app's `recordTables`), for the commands that
 * read a table's schema outside a question (`srag why`, `srag stats`, and the server's `/why` and
 * `/stats`). Tables `srag ingest` or `srag import` made are left out: their schemas are the store's.
 */
export async function sragExtractTables(connection: DuckDBConnection): Promise<RecordTable[]> {
  return (await readRecordTables(connection)).filter((table) => table.madeBy === 'srag_extract');
}

/** Every table a question may read, whatever made it (app's `recordTables` over a snapshot without a question). */
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

/** A table named that is neither one `srag ingest` or `srag import` made (`ingested`) nor one made from `srag_extract` (`made`). */
export function noSuchRecordTable(database: string, table: string, ingested: readonly string[], made: readonly RecordTable[]): SragError {
  const names = [...ingested, ...made.map((candidate) => candidate.name)];
  return new SragError({ code: 'TABLE_NOT_FOUND', message: `no table "${table}" in ${database} made by srag ingest, srag import or srag_extract`, hint: `name one of: ${names.join(', ')}`, fix: { kind: 'name-table', choices: names } });
}

/**
 * The table made from `srag_extract` (`sragExtractTables`) that `table` names, or, when none is
 * named and `srag ingest` or `srag import` made no table (`ingested`), the only one; undefined to
 * go on with the store's tables (`SragStore.tableInfo`).
 * A name that is neither kind's is an error that lists both kinds.
 */
export async function extractMadeTable(ingested: readonly string[], connection: DuckDBConnection, database: string, table: string | undefined): Promise<RecordTable | undefined> {
  if (table !== undefined && ingested.includes(table)) return undefined;
  if (table === undefined && ingested.length > 0) return undefined;
  const made = await sragExtractTables(connection);
  if (table !== undefined) {
    const found = made.find((candidate) => candidate.name === table);
    if (found || made.length === 0) return found;
    throw noSuchRecordTable(database, table, ingested, made);
  }
  if (made.length > 1) {
    throw new SragError({
      code: 'TABLE_NOT_FOUND',
      message: `${database} holds several tables made from srag_extract (${made.map((candidate) => candidate.name).join(', ')})`,
      hint: `name one of: ${made.map((candidate) => candidate.name).join(', ')}`,
      fix: { kind: 'name-table', choices: made.map((candidate) => candidate.name) },
    });
  }
  return made[0];
}
