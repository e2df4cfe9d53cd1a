import type { TableLink } from '../table-choice/table-link.ts';

/**
 * The offered joins a query used: those whose two columns the SQL names. Offered links that share
 * a pair of tables are alternatives (a country as host or as champion); the answer names the ones
 * the SQL rests on. A word match on the SQL text: a column named only in a comment would count,
 * which can only add a join to what the answer names, never hide one.
 */
export function joinsUsedBy(sql: string, joins: TableLink[]): TableLink[] {
  const words = new Set(sql.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []);
  return joins.filter((link) => words.has(link.column.toLowerCase()) && words.has(link.otherColumn.toLowerCase()));
}
