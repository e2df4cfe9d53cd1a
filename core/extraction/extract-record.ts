import { addUsage } from '../language-model/add-usage.ts';
import { DeferralCollector } from '../batch-api/deferral-collector.ts';
import { generateObject } from '../language-model/generate-object.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { NormalizedValue } from '../normalization/index.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { extractionParts } from './extraction-parts.ts';
import { mergePartRecords } from './merge-part-records.ts';
import { readRecordReply, type PartRecord } from './read-record-reply.ts';
import type { ChildRecords } from './child-record.ts';
import type { AttributeEvidence, RecordIssue } from './record-issue.ts';
import { recordOutputSchema } from './record-output-schema.ts';

export interface ExtractRecordOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  schema: RecordSchema;
  /** The document as prompt text (HTML already reduced, see `documentText`). */
  text: string;
  /** Ask for a verbatim quote per value and drop values whose quote is not in the text (default true). */
  withEvidence?: boolean;
  /** The extraction input budget (SRAG_MAX_INPUT_TOKENS); longer documents are split. */
  maxInputTokens?: number;
  countTokens?: (text: string) => number;
  /** SRAG_EXTRACT_MODEL: the SRAG paper (Multi-Doc Multi-Entity QA) extracts with a cheaper model than it asks with. */
  model?: string;
}

export interface ExtractedRecord {
  values: Record<string, NormalizedValue>;
  evidence: AttributeEvidence[];
  issues: RecordIssue[];
  /** The items of each child entity the schema declares (see `ChildEntity`); absent when it declares none. */
  children?: ChildRecords;
  usage: TokenUsage;
  /** True when every reply came from the cache. */
  cached: boolean;
  /** How many parts the document was split into. */
  parts: number;
}

// Both moved to files of their own; exported here too for the modules that import them from here.
export { defaultMaxInputTokens } from './extraction-parts.ts';
export { renderExtractionInstructions } from './render-extraction-instructions.ts';

/**
 * One record per document (S-RAG paper §3.2.2). The prompt puts the fixed instructions and schema in
 * the system message and the document last, so providers' prompt caching covers the prefix.
 */
export async function extractRecord(options: ExtractRecordOptions): Promise<ExtractedRecord> {
  const { client, schema } = options;
  const withEvidence = options.withEvidence ?? true;
  const { system, parts, messages } = extractionParts({ ...options, withEvidence });
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  let cached = true;
  const partRecords: PartRecord[] = [];
  // The parts' requests do not depend on each other's replies: deferred to the Batch API, they go in one submission.
  const deferrals = new DeferralCollector();
  for (const [index, part] of parts.entries()) {
    const wrapped = messages[index]!;
    const read = (strict: boolean) => (reply: unknown) => readRecordReply(reply, { schema, documentText: part, withEvidence, strict });
    const result = await deferrals.attempt(generateObject({
      client,
      // No document name: wherever this error shows (a "failed: <document>" line, a row's _error), the document is its subject already.
      step: parts.length > 1 ? `extracting part ${index + 1} of ${parts.length}` : 'extracting the record',
      request: {
        model: options.model,
        messages: [{ role: 'system', content: system }, { role: 'user', content: wrapped }],
        outputSchema: recordOutputSchema(schema, withEvidence),
      },
      validate: read(true),
      validateAfterReAsk: read(false),
    }));
    if (result === undefined) continue;
    addUsage(usage, result.usage);
    cached &&= result.cached;
    partRecords.push(result.value);
  }
  deferrals.throwIfDeferred();
  const merged = mergePartRecords(schema, partRecords);
  return { ...merged, usage, cached, parts: parts.length };
}
