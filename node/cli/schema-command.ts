import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { countNoun, documentText, predictSchema, recordSchemaToJsonSchema } from '../../core/index.ts';
import { openSession } from '../session/open-session.ts';
import { readQuestionsFile } from './read-questions-file.ts';
import { resolveDocuments } from '../runtime/resolve-documents.ts';
import { readSettings, requireModelConfigured } from '../runtime/read-settings.ts';

export interface SchemaCommandOptions {
  questions: string;
  samples: number;
  questionCount: number;
  iterations: number;
  output?: string;
  db: string;
}

/** `srag schema`: predict a schema from sample documents and questions, as the S-RAG paper does. */
export async function schemaCommand(patterns: string[], options: SchemaCommandOptions, abortSignal: AbortSignal): Promise<number> {
  const { documents } = await resolveDocuments(patterns);
  const questions = (await readQuestionsFile(options.questions)).slice(0, options.questionCount);
  const samples = evenlySpaced(documents, options.samples);
  // Without a model only the response cache can answer, and a database that is not there holds none: say so before creating it.
  if (options.db !== ':memory:' && !existsSync(options.db)) requireModelConfigured(readSettings());
  const session = await openSession(options.db, { abortSignal });
  try {
    const client = session.modelClient();
    const loaded = await Promise.all(samples.map(async (document) => ({ name: document.label ?? document.source, text: documentText(document.source, await document.read()) })));
    process.stderr.write(`predicting a schema from ${countNoun(loaded.length, 'document')} and ${countNoun(questions.length, 'question')}, ${countNoun(options.iterations, 'round')}\n`);
    const predicted = await predictSchema({
      client,
      prompts: session.prompts,
      documents: loaded,
      questions,
      iterations: options.iterations,
      maxInputTokens: session.settings.maxInputTokens * 2,
      countTokens: await session.loadTokenCounter(),
      model: session.settings.model,
      onRound: (round, schema) => process.stderr.write(`round ${round}/${options.iterations}: ${countNoun(schema.attributes.length, 'attribute')} (${schema.attributes.map((attribute) => attribute.name).join(', ')})\n`),
    });
    const json = `${JSON.stringify(recordSchemaToJsonSchema(predicted.schema), null, 2)}\n`;
    if (options.output) {
      await writeFile(options.output, json);
      process.stderr.write(`wrote ${options.output}; review the descriptions and units, then: srag ingest ${patterns.map((pattern) => JSON.stringify(pattern)).join(' ')} --schema ${options.output}\n`);
    } else {
      process.stdout.write(json);
    }
    process.stderr.write(`${describeSchemaUsage(client.usage.total())}\n`);
    return 0;
  } finally {
    session.close();
  }
}

/**
 * The summary line. A round whose request equals an earlier one's — the schema came back
 * unchanged, so the next refinement asks what the last one asked — is answered from the response
 * cache, as is every round of a run repeated: fewer calls than rounds, said with the reason.
 */
function describeSchemaUsage(usage: { calls: number; cacheHits: number; promptTokens: number; completionTokens: number }): string {
  const tokens = `${countNoun(usage.calls, 'model call')}, ${usage.promptTokens} prompt + ${usage.completionTokens} completion tokens`;
  if (usage.cacheHits === 0) return tokens;
  return `${tokens}; ${countNoun(usage.cacheHits, 'round')} answered from the response cache, since ${usage.cacheHits === 1 ? 'it' : 'each'} repeated a request already answered (the schema came back unchanged, or an earlier run asked it)`;
}

/** Samples spread over the sorted list rather than the first N, which often share a prefix. */
function evenlySpaced<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  return Array.from({ length: count }, (_, index) => items[Math.floor((index * items.length) / count)]!);
}
