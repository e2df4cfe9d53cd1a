import { countNoun, predictSchema, runExtraction, tableNameForSchema, type AggregativeDataset, type CancellationSignal, type RecordSchema, type RunProgress } from '../../../core/index.ts';
import { hashText } from '../../runtime/hash-text.ts';
import type { Session } from '../open-session.ts';

/** Documents and questions the schema is predicted from, as in the paper (S-RAG paper §3.2.1). */
const sampleDocuments = 12;
const sampleQuestions = 10;

/**
 * Make sure the dataset's corpus is ingested into a table, for the srag system: with the given
 * schema, else the schema of the table already there, else a schema predicted from 12
 * documents and 10 questions of `schemaSample` (the train split, as in the paper; S-RAG-InferredSchema).
 * Ingestion is resumable: documents already ingested unchanged cost nothing. Returns the table
 * name and where its schema came from.
 */
export async function prepareDatasetTable(options: {
  session: Session;
  dataset: AggregativeDataset;
  /** What the schema is predicted from: the train split; `dataset` itself by default. */
  schemaSample?: AggregativeDataset;
  /** Names the sample in the log line, e.g. `datasets/AI21-Hotels_train`. */
  schemaSampleName?: string;
  table?: string;
  /** The schema to ingest with (e.g. a gold schema file); when absent, the table's or a predicted one. */
  schema?: RecordSchema;
  abortSignal: CancellationSignal;
  log: (line: string) => void;
  onProgress?: (progress: RunProgress) => void;
}): Promise<{ table: string; schemaFrom: 'given' | 'table' | 'predicted' }> {
  const { session, dataset, log } = options;
  const tables = await session.store.tables();
  const existing = options.table ? (tables.includes(options.table) ? options.table : undefined) : tables.length === 1 ? tables[0] : undefined;
  const client = session.modelClient();
  const countTokens = await session.loadTokenCounter();
  let schema: RecordSchema;
  if (options.schema) {
    schema = options.schema;
  } else if (existing) {
    schema = (await session.store.tableInfo(existing)).schema;
  } else {
    const sample = options.schemaSample ?? dataset;
    const documents = evenlySpaced(sample.documents, sampleDocuments).map((document) => ({ name: document.source, text: document.text }));
    const questions = evenlySpaced(sample.questions, sampleQuestions).map((question) => question.question);
    log(`predicting a schema from ${countNoun(documents.length, 'document')} and ${countNoun(questions.length, 'question')}${options.schemaSampleName ? ` of ${options.schemaSampleName}` : ''} (pass --schema FILE for a gold schema)`);
    schema = (await predictSchema({
      client, prompts: session.prompts, documents, questions, countTokens,
      maxInputTokens: session.settings.maxInputTokens * 2, model: session.settings.model,
    })).schema;
  }
  const table = tableNameForSchema(schema, options.table ?? existing);
  await session.store.registerTable(table, schema);
  const store = session.store.extractionStore(table, schema);
  const summary = await runExtraction({
    client: session.modelClient({ cache: store.responseCache }),
    prompts: session.prompts,
    schema,
    documents: dataset.documents.map((document) => ({ source: document.source, read: async () => document.text })),
    store,
    maxInputTokens: session.settings.maxInputTokens,
    loadTokenCounter: async () => countTokens,
    model: session.settings.extractModel,
    concurrency: session.settings.concurrency * 2,
    hashText,
    onProgress: options.onProgress,
    cancellation: options.abortSignal,
  });
  log(`${table}: ${summary.done} ingested, ${summary.unchanged} unchanged, ${summary.failed + summary.skippedFailed} failed`);
  return { table, schemaFrom: options.schema ? 'given' : existing ? 'table' : 'predicted' };
}

/** Samples spread over the list rather than the first N. */
function evenlySpaced<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items];
  return Array.from({ length: count }, (_, index) => items[Math.floor((index * items.length) / count)]!);
}
