import { generateObject } from '../language-model/generate-object.ts';
import type { ModelClient } from '../language-model/model-client.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import type { AttributeDefinition, RecordSchema } from '../schema/attribute-definition.ts';
import { checkRecordSchema } from '../schema/check-record-schema.ts';
import { renderSchemaProblem } from '../schema/render-schema-problem.ts';
import { checkPredictedSchema } from '../schema-prediction/check-predicted-schema.ts';
import type { ColumnStatistics } from '../statistics/column-statistics.ts';
import { renderTableForSql } from '../text-to-sql/render-table-for-sql.ts';

export interface ProposeTargetSchemaOptions {
  client: ModelClient;
  prompts: PromptLibrary;
  table: string;
  schema: RecordSchema;
  statistics: ColumnStatistics[];
  question: string;
  model?: string;
}

export interface TargetSchemaProposal {
  /** Only the attributes the answer needs that the table lacks; empty when it lacks none. */
  attributes: AttributeDefinition[];
  usage: TokenUsage & { calls: number };
}

/**
 * SRAG's target schema, limited to what is new: the model sees the question, the table's schema
 * and statistics, and defines the attributes the answer needs that no column holds, as a schema
 * file's properties. They are checked as a schema file is (types, descriptions, examples, units);
 * a name the table already has is refused, so an existing column is never redefined here. A reply
 * that fails the checks gets one re-ask naming the problems.
 */
export async function proposeTargetSchema(options: ProposeTargetSchemaOptions): Promise<TargetSchemaProposal> {
  const { schema, table } = options;
  const existing = new Set(schema.attributes.map((attribute) => attribute.name.toLowerCase()));
  const content = renderPrompt(options.prompts['target-schema'], {
    table: renderTableForSql({ name: table, schema, statistics: options.statistics, origin: 'extracted' }),
    entity: schema.title.toLowerCase(),
    question: options.question,
  });
  const result = await generateObject({
    client: options.client,
    step: `defining the attributes "${options.question}" needs`,
    request: { model: options.model, messages: [{ role: 'user', content }] },
    validate: (value) => readTargetSchemaReply(value, existing, table),
  });
  return { attributes: result.value, usage: { ...result.usage, calls: result.cached ? 0 : 1 } };
}

function readTargetSchemaReply(value: unknown, existing: Set<string>, table: string): { value: AttributeDefinition[] } | { problems: string[] } {
  const properties = typeof value === 'object' && value !== null ? (value as { attributes?: unknown }).attributes : undefined;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    return { problems: ['the reply must be {"attributes": {"property_name": {"type": …, "description": …, "examples": […]}}}'] };
  }
  if (Object.keys(properties).length === 0) return { value: [] };
  const taken = Object.keys(properties).filter((name) => existing.has(name.toLowerCase()));
  if (taken.length) return { problems: taken.map((name) => `"${name}" is already a column of ${table}: list only attributes the table lacks`) };
  const checked = checkRecordSchema({ title: 'target', type: 'object', properties });
  if (!checked.schema) return { problems: checked.problems.map((problem) => renderSchemaProblem(problem, 'the target schema')) };
  const problems = checkPredictedSchema(checked.schema);
  return problems.length ? { problems } : { value: checked.schema.attributes };
}
