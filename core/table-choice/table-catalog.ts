import type { CatalogTable } from './catalog-table.ts';
import type { TableLink } from './table-link.ts';
import type { ValueMention } from './value-mention.ts';

/**
 * The catalog port: what table choice needs to know about the tables of a database. Adapters keep
 * the heavy parts (column values, value overlap between columns) in the database and hand over
 * only results, so choosing among hundreds of tables of millions of rows moves no rows.
 */
export interface TableCatalog {
  /** Every table a question may be answered from. */
  tables(): Promise<CatalogTable[]>;
  /**
   * The column pairs whose values meet, as measured when the tables were ingested or imported:
   * those with at least one side in `tables` (the candidates), so that a database of thousands of
   * links hands over only the few that can matter.
   */
  links(tables: string[]): Promise<TableLink[]>;
  /**
   * Which of `phrases` (from `questionPhrases`) are values of which columns. Matching is on the
   * normalized form: lower case, runs of anything but letters and digits as one space.
   */
  findValues(phrases: string[]): Promise<ValueMention[]>;
}
