import { DeferralCollector } from '../batch-api/deferral-collector.ts';
import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import { tokenCeiling } from '../documents/token-ceiling.ts';
import { generateObject } from '../language-model/generate-object.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { batchOutputSchema } from './batch-output-schema.ts';
import { extractRecord, type ExtractedRecord } from './extract-record.ts';
import { failsEveryDocument } from './fails-every-document.ts';
import { planBatchCalls } from './plan-batch-calls.ts';
import { readBatchReply } from './read-batch-reply.ts';
import type { PartRecord } from './read-record-reply.ts';
import { renderBatchDocuments, type BatchEntry } from './render-batch-documents.ts';

export interface BatchDocument {
  /** The document as prompt text (see `documentText`). */
  text: string;
  /** Names the document in errors. */
  documentName: string;
}

export interface ExtractRecordBatchOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  schema: RecordSchema;
  documents: BatchDocument[];
  withEvidence?: boolean;
  /** The input budget (SRAG_MAX_INPUT_TOKENS): documents share a call only as far as it allows. */
  maxInputTokens?: number;
  /** The most documents in one call (default: all of them, as far as the budget allows). */
  maxDocumentsPerCall?: number;
  countTokens?: (text: string) => number;
  /** SHA-256 as hex, for the boundary between documents (see `renderBatchDocuments`); core's portable one by default. */
  hashText?: (text: string) => string;
  model?: string;
  /** Called once per model call made for a batch of more than one document (for tests and reports). */
  onBatchCall?: (size: number, outcome: 'records' | 'mismatch' | 'failed') => void;
}

/** Per document, in input order: its record, or the error that document alone failed with. */
export type BatchOutcome = { record: ExtractedRecord } | { error: unknown };

/**
 * Several short documents in one model call. The documents are packed into calls by the input
 * budget (see `packBatches`); each carries an id, and the reply must hold exactly one record per
 * id. When it does not — a record missing, one too many, an unknown id, records whose quotes come
 * from another document of the call (ids mixed up) — or the call fails, the batch is split in
 * half and each half is tried again, down to single documents, which take the ordinary
 * one-document path (`extractRecord`). Nothing is padded or truncated to make counts match. A
 * record whose values have the wrong types is also sent back alone, where it gets the ordinary
 * re-ask. Errors that would fail every document (see `failsEveryDocument`) propagate.
 */
export async function extractRecordBatch(options: ExtractRecordBatchOptions): Promise<BatchOutcome[]> {
  const withEvidence = options.withEvidence ?? true;
  const countTokens = options.countTokens ?? approximateTokenCount;
  const plan = planBatchCalls({
    prompts: options.prompts, schema: options.schema, texts: options.documents.map((document) => document.text), withEvidence,
    maxInputTokens: options.maxInputTokens, maxDocumentsPerCall: options.maxDocumentsPerCall, countTokens,
  });
  const { systemMessage, systemCeiling, budgetTokens: budget, calls } = plan;

  const single = async (document: BatchDocument): Promise<BatchOutcome> => {
    try {
      return {
        record: await extractRecord({
          client: options.client, prompts: options.prompts, schema: options.schema, text: document.text,
          withEvidence, maxInputTokens: options.maxInputTokens, countTokens, model: options.model,
        }),
      };
    } catch (error) {
      if (failsEveryDocument(error)) throw error;
      return { error };
    }
  };

  const run = async (documents: BatchDocument[]): Promise<BatchOutcome[]> => {
    if (documents.length === 1) return [await single(documents[0]!)];
    const split = async () => {
      const middle = Math.ceil(documents.length / 2);
      // Deferred to the Batch API, both halves' requests go in the same submission.
      const deferrals = new DeferralCollector();
      const first = await deferrals.attempt(run(documents.slice(0, middle)));
      const second = await deferrals.attempt(run(documents.slice(middle)));
      deferrals.throwIfDeferred();
      return [...first!, ...second!];
    };
    const entries: BatchEntry[] = documents.map((document, index) => ({ id: String(index + 1), text: document.text }));
    const user = renderBatchDocuments(entries, options.hashText);
    // Counted only when the ceilings do not decide it (see `tokenCeiling`).
    if (systemCeiling + tokenCeiling(user) > budget && plan.systemTokens + countTokens(user) > budget) return split();
    let result;
    try {
      result = await generateObject({
        client: options.client,
        step: `extracting ${documents.length} documents in one call (${documents[0]!.documentName}, …)`,
        request: {
          model: options.model,
          messages: [systemMessage, { role: 'user', content: user }],
          outputSchema: batchOutputSchema(options.schema, withEvidence),
        },
        validate: (reply) => readBatchReply(reply, { schema: options.schema, entries, withEvidence }),
      });
    } catch (error) {
      if (failsEveryDocument(error)) throw error;
      options.onBatchCall?.(documents.length, 'failed');
      return split();
    }
    const reading = result.value;
    options.onBatchCall?.(documents.length, reading.kind);
    if (reading.kind === 'mismatch') return split();
    const share: TokenUsage = shareOf(result.usage, documents.length);
    // One after another, so that a batch never has more than one request in flight.
    const outcomes: BatchOutcome[] = [];
    const deferrals = new DeferralCollector();
    for (const [index, document] of documents.entries()) {
      const read = reading.records.get(entries[index]!.id)!;
      const outcome = 'problems' in read ? await deferrals.attempt(single(document)) : { record: toExtractedRecord(read.value, share, result.cached) };
      if (outcome) outcomes.push(outcome);
    }
    deferrals.throwIfDeferred();
    return outcomes;
  };

  const outcomes: BatchOutcome[] = new Array(options.documents.length);
  // The calls do not depend on each other's replies: deferred to the Batch API, they go in one submission.
  const deferrals = new DeferralCollector();
  for (const call of calls) {
    const results = await deferrals.attempt(run(call.map((position) => options.documents[position]!)));
    if (results) call.forEach((position, index) => { outcomes[position] = results[index]!; });
  }
  deferrals.throwIfDeferred();
  return outcomes;
}

/** A batch call's usage divided evenly among its documents. */
function shareOf(usage: TokenUsage, documents: number): TokenUsage {
  const share: TokenUsage = {
    promptTokens: Math.round(usage.promptTokens / documents),
    completionTokens: Math.round(usage.completionTokens / documents),
  };
  if (usage.cachedPromptTokens !== undefined) share.cachedPromptTokens = Math.round(usage.cachedPromptTokens / documents);
  return share;
}

function toExtractedRecord(record: PartRecord, usage: TokenUsage, cached: boolean): ExtractedRecord {
  return { values: record.values, evidence: record.evidence, issues: record.issues, ...(record.children ? { children: record.children } : {}), usage, cached, parts: 1 };
}
