import type { PromptLibrary } from '../prompts/prompt-library.ts';
import { renderPrompt } from '../prompts/render-prompt.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { recordSchemaToJsonSchema } from '../schema/record-schema-to-json-schema.ts';
import { recordOutputExample } from './record-output-schema.ts';

/** The system message of a one-document extraction: the extract-record prompt with the schema and output example filled in. */
export function renderExtractionInstructions(prompts: PromptLibrary, schema: RecordSchema, withEvidence: boolean): string {
  return renderPrompt(prompts['extract-record'], {
    entity: schema.title.toLowerCase(),
    evidence_rules: withEvidence
      ? '- For every property also give "quote": the shortest verbatim passage of the document (at most 200 characters, copied exactly, not paraphrased) that states the value; null when the value is null.'
      : '',
    schema: JSON.stringify(recordSchemaToJsonSchema(schema), null, 2),
    output_example: recordOutputExample(schema, withEvidence),
  });
}
