import type { RecordTable } from '../../app/index.ts';
import type { TableLink } from '../../core/index.ts';

/** "Tables: hotels, cities (imported from cities.csv); join hotels.city = cities.city": what an answer rests on, in one line. */
export function describeTableChoice(choice: { tables: RecordTable[]; joins: TableLink[] }): string {
  const names = choice.tables.map((table) => `${table.name}${table.madeBy === 'srag import' ? ` (imported from ${table.importedFrom})` : table.madeBy === 'srag_extract' ? ' (made by srag_extract)' : ''}`);
  const joins = choice.joins.map((link) => `${link.table}.${link.column} = ${link.otherTable}.${link.otherColumn}`);
  return `${choice.tables.length === 1 ? 'Table' : 'Tables'}: ${names.join(', ')}${joins.length ? `; join ${joins.join(', ')}` : ''}`;
}
