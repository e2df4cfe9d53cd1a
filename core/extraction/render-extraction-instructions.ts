import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { evidenceRule } from './evidence-rule.ts';
import { renderSchemaForPrompt } from './render-schema-for-prompt.ts';
import { singularNoun } from '../schema/singular-noun.ts';
import { recordOutputExample } from './record-output-schema.ts';
import { renderEntityRules } from './render-entity-rules.ts';

/** The system message of a one-document extraction: the extract-record prompt with the schema and output example filled in. */
export function renderExtractionInstructions(prompts: PromptLibrary, schema: RecordSchema, withEvidence: boolean): string {
  return renderPrompt(prompts['extract-record'], {
    entity: singularNoun(schema.title.toLowerCase()),
    evidence_rules: withEvidence
      ? evidenceRule
      : '',
    entity_rules: renderEntityRules(schema, withEvidence),
    schema: renderSchemaForPrompt(schema),
    output_example: recordOutputExample(schema, withEvidence),
  });
}
