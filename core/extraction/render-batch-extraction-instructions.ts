import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { singularNoun } from '../schema/singular-noun.ts';
import { batchIdKey } from './batch-id-key.ts';
import { batchOutputExample } from './batch-output-schema.ts';
import { evidenceRule } from './evidence-rule.ts';
import { renderEntityRules } from './render-entity-rules.ts';
import { renderSchemaForPrompt } from './render-schema-for-prompt.ts';

/** The system message of a batch extraction: the extract-record-batch prompt with the schema and output form filled in. */
export function renderBatchExtractionInstructions(prompts: PromptLibrary, schema: RecordSchema, withEvidence: boolean): string {
  return renderPrompt(prompts['extract-record-batch'], {
    entity: singularNoun(schema.title.toLowerCase()),
    id_key: batchIdKey(schema),
    evidence_rules: withEvidence ? evidenceRule : '',
    entity_rules: renderEntityRules(schema, withEvidence),
    schema: renderSchemaForPrompt(schema),
    output_example: batchOutputExample(schema, withEvidence),
  });
}
