import { approximateTokenCount } from '../documents/approximate-token-count.ts';
import { generateObject } from '../language-model/generate-object.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { checkRecordSchema } from '../schema/check-record-schema.ts';
import { renderSchemaProblem } from '../schema/render-schema-problem.ts';
import { recordSchemaToJsonSchema } from '../schema/record-schema-to-json-schema.ts';
import { checkPredictedSchema } from './check-predicted-schema.ts';
import { toSnakeCaseProperties } from './to-snake-case-properties.ts';

export interface PredictSchemaOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  /** Sample documents as prompt text; the paper uses 12 (S-RAG paper §3.2.1). */
  documents: Array<{ name: string; text: string }>;
  /** Representative questions; the paper uses 10. */
  questions: string[];
  /** Rounds in all: round 1 from documents only, rounds 2..N refine with questions. Default 4. */
  iterations?: number;
  /** Token budget for all sample documents together; each is truncated to its share. */
  maxInputTokens?: number;
  countTokens?: (text: string) => number;
  model?: string;
  onRound?: (round: number, schema: RecordSchema) => void;
}

export interface PredictedSchema {
  schema: RecordSchema;
  /** The schema after each round, for inspection. */
  rounds: RecordSchema[];
  usage: TokenUsage;
}

/**
 * Iterative schema prediction (S-RAG paper §3.2.1, Appendix B). Every round's reply must parse as a
 * flat schema whose attributes carry a type, a description and examples (numbers also a unit);
 * a reply that does not gets one re-ask listing what is wrong.
 */
export async function predictSchema(options: PredictSchemaOptions): Promise<PredictedSchema> {
  const { client, prompts, questions } = options;
  const iterations = Math.max(1, options.iterations ?? 4);
  const countTokens = options.countTokens ?? approximateTokenCount;
  const share = Math.floor((options.maxInputTokens ?? 60_000) / Math.max(1, options.documents.length));
  const documentBlock = options.documents
    .map((document, index) => `<document index="${index + 1}" name="${document.name}">\n${truncateToTokens(document.text, share, countTokens)}\n</document>`)
    .join('\n\n');
  const usage: TokenUsage = { promptTokens: 0, completionTokens: 0 };
  const rounds: RecordSchema[] = [];
  for (let round = 1; round <= iterations; round += 1) {
    const previous = rounds[rounds.length - 1];
    const userContent = previous
      ? [
          `Existing schema:\n\`\`\`json\n${JSON.stringify(recordSchemaToJsonSchema(previous), null, 2)}\n\`\`\``,
          `Questions:\n${questions.map((question) => `- ${question}`).join('\n')}`,
          `Documents:\n${documentBlock}`,
        ].join('\n\n')
      : `Documents:\n${documentBlock}`;
    const result = await generateObject({
      client,
      step: `predicting the schema (round ${round} of ${iterations})`,
      request: {
        model: options.model,
        messages: [
          { role: 'system', content: previous ? prompts['refine-schema'] : prompts['predict-schema-first'] },
          { role: 'user', content: userContent },
        ],
      },
      validate: (value) => readSchemaReply(value, round),
    });
    usage.promptTokens += result.usage.promptTokens;
    usage.completionTokens += result.usage.completionTokens;
    rounds.push(result.value);
    options.onRound?.(round, result.value);
  }
  return { schema: rounds[rounds.length - 1]!, rounds, usage };
}

function readSchemaReply(value: unknown, round: number): { value: RecordSchema } | { problems: string[] } {
  // A model's extra annotations ("title", "enum" on a property) are harmless: the saved schema drops them.
  const { schema, problems } = checkRecordSchema(toSnakeCaseProperties(value), { unknownKeys: 'ignore' });
  if (!schema) return { problems: problems.map((problem) => renderSchemaProblem(problem, `model output (round ${round})`)) };
  const missing = checkPredictedSchema(schema);
  return missing.length ? { problems: missing } : { value: schema };
}

function truncateToTokens(text: string, maxTokens: number, countTokens: (text: string) => number): string {
  if (countTokens(text) <= maxTokens) return text;
  let length = Math.floor(text.length * (maxTokens / countTokens(text)));
  while (length > 0 && countTokens(text.slice(0, length)) > maxTokens) length = Math.floor(length * 0.9);
  return `${text.slice(0, length)}\n[… truncated]`;
}
