import pLimit from 'p-limit';
import { documentText } from '../documents/document-text.ts';
import { SragError } from '../errors/srag-error.ts';
import { extractRecord } from '../extraction/extract-record.ts';
import { failsEveryDocument } from '../extraction/fails-every-document.ts';
import { contentHash } from '../hashing/content-hash.ts';
import { countNoun } from '../text/count-noun.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import type { RecordStore } from './record-store.ts';

export interface DocumentSource {
  /** The path or id the record keeps as provenance. */
  source: string;
  read(): Promise<string>;
}

export interface IngestProgress {
  completed: number;
  total: number;
  source: string;
  outcome: 'done' | 'failed' | 'unchanged' | 'skipped-failed';
}

export interface IngestSummary {
  total: number;
  done: number;
  failed: number;
  /** Unchanged since a previous run: no model call, no write. */
  unchanged: number;
  /** Extracted, with every reply from the response cache. */
  fromCache: number;
  /** Failed in an earlier run and left alone (no --retry-failed). */
  skippedFailed: number;
  promptTokens: number;
  completionTokens: number;
  failures: Array<{ source: string; error: string }>;
}

export interface IngestDocumentsOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  schema: RecordSchema;
  documents: DocumentSource[];
  store: RecordStore;
  retryFailed?: boolean;
  withEvidence?: boolean;
  maxInputTokens?: number;
  countTokens?: (text: string) => number;
  model?: string;
  /** Documents in progress at once; model calls are bounded separately by the client. */
  documentConcurrency?: number;
  onProgress?: (progress: IngestProgress) => void;
  abortSignal?: CancellationSignal;
}

/**
 * Ingest documents into the store: unchanged documents (same content hash, done) are skipped with
 * no model call; changed ones are re-extracted and replace their row; a bad document is logged as
 * failed and never takes the batch down. Errors that would fail every document (bad key, unknown
 * model, cancellation) stop the batch and propagate.
 */
export async function ingestDocuments(options: IngestDocumentsOptions): Promise<IngestSummary> {
  const { documents, store } = options;
  const log = await store.logEntries();
  const summary: IngestSummary = {
    total: documents.length, done: 0, failed: 0, unchanged: 0, fromCache: 0, skippedFailed: 0,
    promptTokens: 0, completionTokens: 0, failures: [],
  };
  let completed = 0;
  const report = (source: string, outcome: IngestProgress['outcome']) => {
    completed += 1;
    options.onProgress?.({ completed, total: documents.length, source, outcome });
  };
  let fatal: unknown;
  const limit = pLimit(Math.max(1, options.documentConcurrency ?? 16));
  await Promise.all(documents.map((document) => limit(async () => {
    if (fatal !== undefined || options.abortSignal?.aborted) return;
    let hash = '';
    try {
      const content = await document.read();
      hash = contentHash(content);
      const previous = log.get(document.source);
      if (previous?.contentHash === hash && previous.status === 'done') {
        summary.unchanged += 1;
        return report(document.source, 'unchanged');
      }
      if (previous?.contentHash === hash && previous.status === 'failed' && !options.retryFailed) {
        summary.skippedFailed += 1;
        summary.failures.push({ source: document.source, error: previous.error ?? 'failed in an earlier run' });
        return report(document.source, 'skipped-failed');
      }
      const record = await extractRecord({
        client: options.client,
        prompts: options.prompts,
        schema: options.schema,
        text: documentText(document.source, content),
        withEvidence: options.withEvidence,
        maxInputTokens: options.maxInputTokens,
        countTokens: options.countTokens,
        model: options.model,
      });
      await store.saveRecord({ source: document.source, contentHash: hash, values: record.values, evidence: record.evidence, issues: record.issues });
      summary.done += 1;
      if (record.cached) summary.fromCache += 1;
      summary.promptTokens += record.usage.promptTokens;
      summary.completionTokens += record.usage.completionTokens;
      report(document.source, 'done');
    } catch (error) {
      if (failsEveryDocument(error) || options.abortSignal?.aborted) {
        fatal ??= error;
        return;
      }
      const message = describe(error);
      await store.saveFailure({ source: document.source, contentHash: hash, error: message });
      summary.failed += 1;
      summary.failures.push({ source: document.source, error: message });
      report(document.source, 'failed');
    }
  })));
  if (options.abortSignal?.aborted) {
    throw new SragError({ code: 'CANCELLED', message: `ingest cancelled after ${countNoun(summary.done, 'new record')}; finished documents are saved — rerun the same command to resume` });
  }
  if (fatal !== undefined) throw fatal;
  return summary;
}

function describe(error: unknown): string {
  if (SragError.isInstance(error)) return error.message;
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
