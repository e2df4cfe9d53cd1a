import type { AttributeDefinition, RetryNotice, RunProgress, TokenUsage } from '../../core/index.ts';
import type { RecordTable } from '../tables/record-table.ts';
import type { TableExporter } from './table-source.ts';

/** What a back-fill will cost, said before it starts. */
export interface BackfillEstimate {
  documents: number;
  /** Requests as the run will group them: short documents share one, a long one may take several. */
  calls: number;
  promptTokens: number;
  /** Planned, not known (see core's `plannedRecordTokens`). */
  completionTokens: number;
  /** US dollars at the price table's price of `model`; null for a model without a price (SRAG_PRICES adds one). */
  costUsd: number | null;
  model: string;
  /** One line: "the back-fill extracts N documents: about C calls, P prompt + Q completion tokens to MODEL (~$X)". */
  text: string;
}

export interface GrowOptions {
  /** Stop after the estimate: nothing is added and no extraction call is made. */
  dryRun?: boolean;
  /**
   * Asked before a back-fill of more than SRAG_CONFIRM_DOCUMENTS documents; false stops it
   * (CANCELLED). Absent: it goes ahead (a server, SQL, a pipe) and the estimate is only reported.
   */
  confirm?: (estimate: BackfillEstimate) => Promise<boolean>;
  /** One line per event worth telling: attributes added, the estimate, the back-fill's outcome. */
  onNotice?: (line: string) => void;
  onProgress?: (progress: RunProgress) => void;
  onRetry?: (notice: RetryNotice) => void;
  cancellation?: { readonly aborted: boolean };
}

/** What growing a table for a question added and cost (`srag ask --extend-schema --json` and `srag_ask`'s `schema_extension`). */
export interface ExtensionReport {
  /** The attributes added for this question (empty when the table held everything it needs). */
  addedAttributes: AttributeDefinition[];
  /** The target-schema call (SRAG_MODEL). */
  schemaUsage: TokenUsage & { calls: number };
  /** The back-fill (SRAG_EXTRACT_MODEL): zero calls when no record lacked an attribute. */
  extractionUsage: TokenUsage & { calls: number; documents: number };
  /** Said before the back-fill; absent when there was nothing to back-fill. */
  estimate?: BackfillEstimate;
  /** Documents the back-fill reported instead of extracting (changed or gone since their row was saved). */
  notBackfilled: Array<{ document: string; reason: string }>;
}

/** The table after it grew: as a question now sees it, and how to read values not committed yet. */
export interface TableGrowth {
  table: RecordTable;
  /** Exports that lay the back-filled values over the committed ones (`srag_ask`, whose writes wait for the statement's end). */
  exporter?: TableExporter;
  report: ExtensionReport;
}

/** Grows a table `srag ingest` made for a question (SRAG's target schema at question time). */
export interface TableGrower {
  grow(table: RecordTable, question: string, options: GrowOptions): Promise<TableGrowth>;
}
