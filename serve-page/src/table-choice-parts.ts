import type { Join, TableDetail } from './api-types.ts';

/** Part of the line naming an answer's tables: words, or a table (a link to browse it on the page). */
export type TableChoicePart = { text: string } | { table: string };

/**
 * "Tables: hotels, cities (imported from cities.csv); join hotels.city = cities.city": the tables an
 * answer rests on, in the words `srag ask` prints (`describeTableChoice`), each table a part of its
 * own so the page can link it. `details` are the tables as GET /tables describes them.
 */
export function tableChoiceParts(tables: readonly string[], joins: readonly Join[], details: readonly TableDetail[]): TableChoicePart[] {
  const parts: TableChoicePart[] = [{ text: `${tables.length === 1 ? 'Table' : 'Tables'}: ` }];
  tables.forEach((name, index) => {
    const detail = details.find((table) => table.name === name);
    if (index > 0) parts.push({ text: ', ' });
    parts.push({ table: name });
    if (detail?.madeBy === 'srag import') parts.push({ text: ` (imported from ${detail.importedFrom ?? 'a file'})` });
    if (detail?.madeBy === 'srag_extract') parts.push({ text: ' (made by srag_extract)' });
  });
  if (joins.length) parts.push({ text: `; join ${joins.map((link) => `${link.table}.${link.column} = ${link.otherTable}.${link.otherColumn}`).join(', ')}` });
  return parts;
}
