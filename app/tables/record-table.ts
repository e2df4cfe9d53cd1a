import type { CatalogTable } from '../../core/index.ts';

/** What made a table, and so what it keeps: evidence and documents (`srag ingest`, `srag_extract`) or the user's rows (`srag import`). */
export type TableMaker = 'srag ingest' | 'srag import' | 'srag_extract';

/**
 * A table a question may be answered from, whatever made it: what table choice and text-to-SQL
 * need (`CatalogTable`), and what the sandbox needs to read it — its columns, the second names it
 * shows them under, and where its evidence is kept.
 */
export interface RecordTable extends CatalogTable {
  madeBy: TableMaker;
  columns: Array<{ name: string; type: string }>;
  /**
   * Columns the sandbox shows under a second name: a table made from `srag_extract` calls its
   * provenance column `filename`, and the text-to-SQL prompt calls it `_source`.
   */
  aliases: Array<{ name: string; of: string }>;
  /**
   * Where `srag_evidence` keeps the quotes behind its values: under the table's name (`srag
   * ingest`) or the schema key (`srag_extract`); `copyOf` when the rows are a copy of
   * `srag_extract`'s (`CREATE TABLE … AS SELECT * FROM srag_extract(…)`), whose `filename` is not a
   * document's identity, so evidence is matched to its rows by `content_hash`. Null for an imported table.
   */
  evidence: { name: string; copyOf?: string } | null;
  /** False when the statistics are not kept and must be computed from the rows (a table made from `srag_extract`). */
  statisticsKept: boolean;
}
