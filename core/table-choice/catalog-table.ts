import type { ChildEntity, RecordSchema } from '../schema/attribute-definition.ts';
import type { ColumnStatistics } from '../statistics/column-statistics.ts';

/**
 * One table a question may be answered from, as the catalog describes it: its schema (an imported
 * table gets one made from its columns), its statistics, and where its rows came from.
 */
export interface CatalogTable {
  name: string;
  schema: RecordSchema;
  statistics: ColumnStatistics[];
  /**
   * `extracted`: one row per document, each value with its quote (`srag ingest`, `srag_extract`).
   * `imported`: the user's own rows (`srag import`), taken as they are, without evidence.
   */
  origin: 'extracted' | 'imported';
  /** For an imported table: the file it was read from, as the user named it. */
  importedFrom?: string;
  /** What the user said the table holds (`srag import --description`), if anything. */
  description?: string;
  /**
   * For a child entity's table (`hotels__rooms`): the table of the documents that list the items,
   * which it joins on `_source`, and the entity as the schema declares it (see `relateChildTables`).
   */
  parent?: { table: string; entity: ChildEntity };
}
