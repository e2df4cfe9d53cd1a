import type { TableChoice } from '../../../core/index.ts';

/** "Tables: hotels, cities (join hotels.city = cities.city)": what an answer rests on, in one line. */
export function describeTableChoice(choice: Pick<TableChoice, 'tables' | 'joins'>): string {
  const names = choice.tables.map((table) => `${table.name}${table.origin === 'imported' ? ` (imported from ${table.importedFrom})` : ''}`);
  const joins = choice.joins.map((link) => `${link.table}.${link.column} = ${link.otherTable}.${link.otherColumn}`);
  return `${choice.tables.length === 1 ? 'Table' : 'Tables'}: ${names.join(', ')}${joins.length ? `; join ${joins.join(', ')}` : ''}`;
}
