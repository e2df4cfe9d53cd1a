import type { TableCatalog, TableLink, ValueMention } from '../../core/index.ts';
import type { RecordTable } from './record-table.ts';
import type { TableSnapshot } from './table-snapshot.ts';

/**
 * The table-choice catalog over a snapshot: the value matches were found by the database for this
 * very question; the links are the snapshot's, or read for the candidates by `readLinks` when given.
 */
export function snapshotCatalog(snapshot: TableSnapshot, tables: RecordTable[], readLinks?: (tables: string[]) => Promise<TableSnapshot['links']>): TableCatalog {
  return {
    tables: async () => tables,
    links: async (names) => {
      const wanted = new Set(names);
      return (readLinks ? await readLinks(names) : snapshot.links).map(readTableLink).filter((link) => wanted.has(link.table) || wanted.has(link.otherTable));
    },
    findValues: async (phrases) => {
      const wanted = new Set(phrases);
      return snapshot.mentions.filter((mention) => wanted.has(mention.phrase))
        .map((mention): ValueMention => ({ table: mention.table_name, column: mention.column_name, phrase: mention.phrase }));
    },
  };
}

function readTableLink(row: TableSnapshot['links'][number]): TableLink {
  return {
    table: row.table_name, column: row.column_name, otherTable: row.other_table, otherColumn: row.other_column,
    containment: Number(row.containment), otherUniqueness: Number(row.other_uniqueness), sharedValues: Number(row.shared_values),
  };
}
