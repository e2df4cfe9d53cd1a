import type { DocumentSource, RecordSchema } from '../../core/index.ts';
import { ModelClient, runExtraction } from '../../core/index.ts';
import { loadPromptLibrary } from '../../node/runtime/load-prompt-library.ts';
import { OpenAiLanguageModel } from '../../node/runtime/openai-language-model.ts';
import type { BatchSlip, LlmStandIn, ModelSlip } from './llm-stand-in/index.ts';
import { memoryExtractionStore } from './memory-extraction-store.ts';

/**
 * One extraction run at the default batching against the stand-in, which makes `batchSlips` in
 * every reply that answers several documents; returns the run's summary, the records saved, and
 * how many documents each model call carried (1 for a call with one document).
 */
export async function runWithBatchSlips({ standIn, schema, documents, batchSlips, withEvidence = true, slips = [] }: {
  standIn: LlmStandIn;
  schema: RecordSchema;
  documents: DocumentSource[];
  batchSlips: BatchSlip[];
  /** false: ask for values without quotes (`--no-evidence`). */
  withEvidence?: boolean;
  /** Slips made in every record, shared call or not (see `ModelSlip`). */
  slips?: ModelSlip[];
}) {
  standIn.reset();
  standIn.setOptions({ batchSlips, slips });
  const languageModel = new OpenAiLanguageModel({ baseURL: standIn.url, model: 'stand-in', timeoutMilliseconds: 30_000 });
  const client = new ModelClient({ languageModel, sleep: async () => {}, retry: { maxRetries: 0 } });
  const { store, records } = memoryExtractionStore();
  const summary = await runExtraction({ client, prompts: loadPromptLibrary(), schema, documents, store, concurrency: 2, withEvidence });
  const documentsPerCall = standIn.requests.map((request) =>
    (request.kind === 'extract-record-batch' ? (request.body as { messages: Array<{ content: string }> }).messages[1]!.content.match(/^<document id="/gm)!.length : 1));
  return { summary, records, documentsPerCall };
}
