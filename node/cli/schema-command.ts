import { writeFile } from 'node:fs/promises';
import { countNoun, documentText, predictSchema, recordSchemaToJsonSchema } from '../../core/index.ts';
import { openSession } from '../session/open-session.ts';
import { readQuestionsFile } from './read-questions-file.ts';
import { resolveDocuments } from '../runtime/resolve-documents.ts';

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
    const total = client.usage.total();
    process.stderr.write(`${total.calls} model calls, ${total.promptTokens} prompt + ${total.completionTokens} completion tokens\n`);
    return 0;
  } finally {
    session.close();
  }
}

/** Samples spread over the sorted list rather than the first N, which often share a prefix. */
function evenlySpaced<T>(items: T[], count: number): T[] {
  if (items.length <= count) return items;
  return Array.from({ length: count }, (_, index) => items[Math.floor((index * items.length) / count)]!);
}
