import type { ModelClient } from '../language-model/model-client.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import type { DocumentSource } from '../extraction-run/document-source.ts';
import type { ExtractionStore, IngestionLogEntry, StoredRecord } from '../extraction-run/extraction-store.ts';
import { runExtraction } from '../extraction-run/run-extraction.ts';
import type { RunSummary } from '../extraction-run/run-summary.ts';
import type { RunProgress } from '../extraction-run/start-extraction-run.ts';

/**
 * The Sheets batch's store until it moves to `ExtractionStore` (the last step of the one-run
 * change, after the Sheets runtime fixes land): it keeps no response cache and no statistics.
 */
export interface RecordStore {
  logEntries(): Promise<Map<string, IngestionLogEntry>>;
  saveRecord(record: StoredRecord): Promise<void>;
  saveFailure(failure: { source: string; contentHash: string; error: string }): Promise<void>;
}

export interface IngestDocumentsOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  schema: RecordSchema;
  documents: DocumentSource[];
  store: RecordStore;
  retryFailed?: boolean;
  model?: string;
  documentConcurrency?: number;
  onProgress?: (progress: RunProgress) => void;
  abortSignal?: CancellationSignal;
}

/** `runExtraction` over a `RecordStore` (see there); kept for the Sheets batch only, to be removed with it. */
export function ingestDocuments(options: IngestDocumentsOptions): Promise<RunSummary> {
  const store: ExtractionStore = {
    logEntries: () => options.store.logEntries(),
    saveRecord: (record) => options.store.saveRecord(record),
    saveLogEntry: (entry) => options.store.saveFailure({ source: entry.source, contentHash: entry.contentHash, error: entry.error ?? entry.status }),
    responseCache: { get: async () => undefined, set: async () => undefined },
    refreshStatistics: async () => undefined,
  };
  return runExtraction({
    client: options.client, prompts: options.prompts, schema: options.schema, documents: options.documents, store,
    retryFailed: options.retryFailed, model: options.model, concurrency: options.documentConcurrency,
    onProgress: options.onProgress, cancellation: options.abortSignal,
  });
}
