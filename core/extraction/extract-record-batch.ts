import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import { generateObject } from '../language-model/generate-object.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { recordSchemaToJsonSchema } from '../schema/record-schema-to-json-schema.ts';
import { batchIdKey } from './batch-id-key.ts';
import { batchOutputExample, batchOutputSchema } from './batch-output-schema.ts';
import { defaultMaxInputTokens, extractRecord, type ExtractedRecord } from './extract-record.ts';
import { failsEveryDocument } from './fails-every-document.ts';
import type { PartRecord } from './read-record-reply.ts';
import { renderBatchDocuments, type BatchEntry } from './render-batch-documents.ts';
import { readBatchReply } from './read-batch-reply.ts';
import { extractionPrefix } from './extraction-prefix.ts';

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
  /** The input budget (SRAG_MAX_INPUT_TOKENS): a batch over it is split before it is sent. */
  maxInputTokens?: number;
  countTokens?: (text: string) => number;
  model?: string;
  /** Called once per model call made for a batch of more than one document (for tests and reports). */
  onBatchCall?: (size: number, outcome: 'records' | 'mismatch' | 'failed') => void;
}

/** Per document, in input order: its record, or the error that document alone failed with. */
export type BatchOutcome = { record: ExtractedRecord } | { error: unknown };

/** Room left for the reply and the message framing, out of the input budget. */
const framingTokens = 200;

/**
 * Several short documents in one model call (`batch_size` in SQL). Each document carries an id;
 * the reply must hold exactly one record per id. When it does not — a record missing, one too
 * many, an unknown id — or the batch does not fit the input budget, or the call fails, the batch
 * is split in half and each half is tried again, down to single documents, which take the
 * ordinary one-document path (`extractRecord`). Nothing is padded or truncated to make counts
 * match. A record whose values have the wrong types is also sent back alone, where it gets the
 * ordinary re-ask. Errors that would fail every document (see `failsEveryDocument`) propagate.
 */
export async function extractRecordBatch(options: ExtractRecordBatchOptions): Promise<BatchOutcome[]> {
  const withEvidence = options.withEvidence ?? true;
  const countTokens = options.countTokens ?? approximateTokenCount;
  const { system, tokens: systemTokens } = extractionPrefix(options.schema, options.prompts, `batch:${withEvidence}`, countTokens,
    () => renderBatchExtractionInstructions(options.prompts, options.schema, withEvidence));
  const budget = (options.maxInputTokens ?? defaultMaxInputTokens) - framingTokens;

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
      return [...await run(documents.slice(0, middle)), ...await run(documents.slice(middle))];
    };
    const entries: BatchEntry[] = documents.map((document, index) => ({ id: String(index + 1), text: document.text }));
    const user = renderBatchDocuments(entries);
    if (systemTokens + countTokens(user) > budget) return split();
    let result;
    try {
      result = await generateObject({
        client: options.client,
        step: `extracting ${documents.length} documents in one call (${documents[0]!.documentName}, …)`,
        request: {
          model: options.model,
          messages: [{ role: 'system', content: system }, { role: 'user', content: user }],
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
    const share: TokenUsage = {
      promptTokens: Math.round(result.usage.promptTokens / documents.length),
      completionTokens: Math.round(result.usage.completionTokens / documents.length),
    };
    // One after another, so that a batch never has more than one request in flight.
    const outcomes: BatchOutcome[] = [];
    for (const [index, document] of documents.entries()) {
      const read = reading.records.get(entries[index]!.id)!;
      outcomes.push('problems' in read ? await single(document) : { record: toExtractedRecord(read.value, share, result.cached) });
    }
    return outcomes;
  };

  return run(options.documents);
}

function toExtractedRecord(record: PartRecord, usage: TokenUsage, cached: boolean): ExtractedRecord {
  return { values: record.values, evidence: record.evidence, issues: record.issues, usage, cached, parts: 1 };
}

export function renderBatchExtractionInstructions(prompts: PromptLibrary, schema: RecordSchema, withEvidence: boolean): string {
  return renderPrompt(prompts['extract-record-batch'], {
    entity: schema.title.toLowerCase(),
    id_key: batchIdKey(schema),
    evidence_rules: withEvidence
      ? '- For every property also give "quote": the shortest verbatim passage of that document (at most 200 characters, copied exactly, not paraphrased) that states the value; null when the value is null.'
      : '',
    schema: JSON.stringify(recordSchemaToJsonSchema(schema), null, 2),
    output_example: batchOutputExample(schema, withEvidence),
  });
}
