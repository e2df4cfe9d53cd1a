import { SragError } from '../../core/index.ts';
import type { RecordTable } from './record-table.ts';

/**
 * The table a request names, among `tables` (case as SQL takes it: insensitive); an error whose
 * fix names the tables there are when it is not one of them. `present` are all the database's
 * tables, so that one no schema explains is told apart from one that is not there; `database`
 * names the database in the message.
 */
export function findRecordTable(tables: readonly RecordTable[], name: string, database: string, present: readonly string[] = []): RecordTable {
  const found = tables.find((table) => table.name.toLowerCase() === name.toLowerCase());
  if (found) return found;
  if (present.some((table) => table.toLowerCase() === name.toLowerCase())) {
    throw new SragError({
      code: 'TABLE_NOT_FOUND',
      message: `table "${name}" was not made by srag ingest, srag import or srag_extract, so the meaning of its columns is unknown`,
      hint: 'import it with srag import, or make it with CREATE TABLE … AS SELECT * FROM srag_extract(…) or srag ingest',
    });
  }
  return noSuchTable(tables, `no table "${name}" in ${database} made by srag ingest, srag import or srag_extract`);
}

/**
 * The only table of documents (a child entity's table goes with its parent), for requests that
 * may leave the table out when there is one; an error naming the choices otherwise.
 */
export function onlyRecordTable(tables: readonly RecordTable[], database: string): RecordTable {
  const documentTables = tables.filter((table) => !table.parent);
  if (documentTables.length === 1) return documentTables[0]!;
  return noSuchTable(tables, documentTables.length === 0 ? `${database} holds no table made by srag ingest, srag import or srag_extract` : `${database} holds several tables (${documentTables.map((table) => table.name).join(', ')})`);
}

function noSuchTable(tables: readonly RecordTable[], message: string): never {
  const choices = tables.map((table) => table.name);
  throw new SragError({
    code: 'TABLE_NOT_FOUND',
    message,
    ...(choices.length
      ? { fix: { kind: 'name-table', choices }, hint: `name one of: ${choices.join(', ')}` }
      : { hint: 'make one first: srag ingest DOCUMENTS --schema FILE, srag import FILE, or CREATE TABLE … AS SELECT * FROM srag_extract(…)' }),
  });
}
