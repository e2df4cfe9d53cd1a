import { chooseTables, type TableChoice } from '../../core/index.ts';
import type { RecordTable } from '../tables/record-table.ts';
import { findRecordTable } from '../tables/find-record-table.ts';
import { snapshotCatalog } from '../tables/snapshot-catalog.ts';
import type { TableSnapshot } from '../tables/table-snapshot.ts';

/** The tables a question is asked of: the one named, or those `chooseTables` picks (the ARM paper's choice), with their joins. */
export interface RecordTableChoice extends TableChoice {
  tables: RecordTable[];
}

export async function chooseRecordTables(
  snapshot: TableSnapshot, tables: RecordTable[], question: string, named: string | undefined, database: string,
  readLinks?: (tables: string[]) => Promise<TableSnapshot['links']>,
): Promise<RecordTableChoice> {
  if (named !== undefined) return { tables: [findRecordTable(tables, named, database, snapshot.tables.map((table) => table.name))], joins: [], terms: [], coverage: 1 };
  return await chooseTables({ question, catalog: snapshotCatalog(snapshot, tables, readLinks) }) as RecordTableChoice;
}
