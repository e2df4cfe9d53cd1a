import type { RunSummary, SynthesisReport } from '../../core/index.ts';
import type { MovedDocuments } from '../duckdb/store/moved-documents.ts';
import type { IngestDocumentsResult } from './ingest-documents.ts';

/** What an ingest did or would do, as data: each edge words it (the CLI's summary line, a serve job's result). */
export type IngestOutcome = IngestReport | IngestEstimate;

/** A document where an accepted synthesized extractor failed and the model read the value. */
export interface SynthesisFallback {
  document: string;
  attribute: string;
  reason: string;
}

/** What a run did: its counts, tokens and cost, and what it left for later. */
export interface IngestReport {
  kind: 'run';
  table: string;
  /** The extraction model (SRAG_EXTRACT_MODEL). */
  model: string;
  summary: RunSummary;
  usage: IngestDocumentsResult['usage'];
  /** Failed in this run, and left alone after failing in an earlier one. */
  failed: number;
  /** What the run's model calls cost at the model's price; null when srag knows none. */
  costUsd: number | null;
  /**
   * How the run ended: `budget-reached` when it stopped before spending more than `maxCostUsd`
   * (what is done is saved; the same ingest again goes on), `failed` when a document failed.
   */
  ending: 'done' | 'failed' | 'budget-reached';
  /** With a spending limit: the limit, and the documents not started when the run stopped at it. */
  budget?: { maxCostUsd: number; notStarted: number };
  /** Records that followed their documents to new paths, and documents gone from theirs (pruned or not). */
  movedDocuments: MovedDocuments;
  /** Present when the Batch API was used or asked about. */
  batch?: {
    /** Documents whose replies a batch still owes: submitted by this run, or by an earlier one. */
    waiting: number;
    /** The batches this run submitted. */
    submitted: string[];
    /** The batches still out from earlier runs. */
    open: string[];
    collectedReplies: number;
  };
  /** With `synthesize`: which extractors were used and how many values code read. */
  synthesis?: SynthesisReport;
  /** With `synthesize`: the first documents where an accepted extractor failed, and how many there were. */
  fallbacks?: { named: SynthesisFallback[]; count: number };
}

/** What a dry run found: what the run would send and cost, with no model call and no write. */
export interface IngestEstimate {
  kind: 'dry-run';
  table: string;
  model: string;
  /** Documents the run would send to the model. */
  documents: number;
  /** Documents it would leave alone: unchanged, failed before with the same content, or empty. */
  leftAlone: number;
  unreadable: number;
  /** Documents a Batch API batch still works on: left out of the run. */
  waitingForBatchApi: number;
  calls: number;
  promptTokens: number;
  /** At the replies' planned longest. */
  completionTokens: number;
  /** At the run's price (the Batch API's with `batchApi`); null when srag knows no price for the model. */
  costUsd: number | null;
  batchApi: boolean;
  maxCostUsd?: number;
  /** The estimate is over `maxCostUsd`: the run would stop early. */
  overBudget: boolean;
  /** Records that would follow their documents, and documents gone from their paths. */
  movedDocuments: MovedDocuments;
  /** The run would remove the records of the gone documents. */
  prune: boolean;
}
