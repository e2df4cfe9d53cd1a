import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import { documentText } from '../documents/document-text.ts';
import { resolveBatchSize } from '../extraction/automatic-batch-size.ts';
import { estimateExtractionUsage } from '../extraction/estimate-extraction-usage.ts';
import { contentHash } from '../hashing/content-hash.ts';
import type { ExtractionRunOptions } from './start-extraction-run.ts';

export interface ExtractionRunEstimate {
  /** Documents given. */
  documents: number;
  /** Of them, documents a run would send to the model. */
  toExtract: number;
  /** Of them, documents a run would leave alone: unchanged since they were extracted, failed before with the same content (without `retryFailed`), or empty. */
  leftAlone: number;
  /** Of them, documents that could not be read (a run logs them as failed, with no call). */
  unreadable: number;
  calls: number;
  /** The messages' tokens, counted as the run will render them. */
  promptTokens: number;
  /** Planned (see `plannedRecordTokens`). */
  completionTokens: number;
}

export type EstimateExtractionRunOptions = Pick<ExtractionRunOptions,
  'prompts' | 'schema' | 'documents' | 'store' | 'withEvidence' | 'retryFailed' | 'maxInputTokens' | 'loadTokenCounter' | 'batchSize' | 'hashText'>;

/**
 * What a run with these options would send, without a model call or a write: documents are read
 * and looked up in the ingestion log as the run does, grouped as the run groups them, and each
 * group's calls and prompt tokens come from `estimateExtractionUsage` — the plan the run follows.
 * Assumes every reply is usable; splits after a bad batch reply and re-asks cost more.
 */
export async function estimateExtractionRun(options: EstimateExtractionRunOptions): Promise<ExtractionRunEstimate> {
  const withEvidence = options.withEvidence ?? true;
  const batchSize = resolveBatchSize(options.batchSize, options.schema, withEvidence);
  const hashText = options.hashText ?? contentHash;
  const countTokens = options.loadTokenCounter ? await options.loadTokenCounter() : approximateTokenCount;
  const log = await options.store.logEntries(options.documents.map((document) => document.source));
  const estimate: ExtractionRunEstimate = { documents: options.documents.length, toExtract: 0, leftAlone: 0, unreadable: 0, calls: 0, promptTokens: 0, completionTokens: 0 };
  for (let start = 0; start < options.documents.length; start += batchSize) {
    const texts: string[] = [];
    for (const document of options.documents.slice(start, start + batchSize)) {
      let content: string;
      try {
        content = await document.read();
      } catch {
        estimate.unreadable += 1;
        continue;
      }
      const hash = hashText(content);
      // A moved document keeps its record (a store that plans only says so, moving nothing).
      const previous = log.get(document.source) ?? await options.store.followMoved?.(document.source, hash);
      let text: string;
      try {
        text = documentText(document.source, content);
      } catch {
        // The run logs such a document as failed, with no call.
        estimate.unreadable += 1;
        continue;
      }
      if ((previous?.contentHash === hash && (previous.status !== 'failed' || !options.retryFailed)) || text.trim() === '') {
        estimate.leftAlone += 1;
        continue;
      }
      texts.push(text);
    }
    if (texts.length === 0) continue;
    estimate.toExtract += texts.length;
    const usage = estimateExtractionUsage({
      prompts: options.prompts, schema: options.schema, texts, withEvidence, maxInputTokens: options.maxInputTokens, maxDocumentsPerCall: batchSize, countTokens,
    });
    estimate.calls += usage.calls;
    estimate.promptTokens += usage.promptTokens;
    estimate.completionTokens += usage.completionTokens;
  }
  return estimate;
}
