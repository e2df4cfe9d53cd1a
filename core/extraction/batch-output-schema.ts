import type { OutputSchema } from '../ports/language-model.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { batchIdKey } from './batch-id-key.ts';
import { recordOutputExample, recordOutputSchema } from './record-output-schema.ts';

/**
 * Structured output for several records in one reply: `{"records": [{"id": ..., <record>}, ...]}`
 * (the id under `batchIdKey`). The array sits under a key because strict structured output wants an
 * object at the top.
 */
export function batchOutputSchema(schema: RecordSchema, withEvidence: boolean): OutputSchema {
  const record = recordOutputSchema(schema, withEvidence).schema as { properties: Record<string, unknown>; required: string[] };
  const idKey = batchIdKey(schema);
  return {
    name: 'records',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: ['records'],
      properties: {
        records: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: [idKey, ...record.required],
            properties: Object.fromEntries([[idKey, { type: 'string', description: 'The id of the document this record was read from.' }], ...Object.entries(record.properties)]),
          },
        },
      },
    },
  };
}

/** The output form shown in the prompt: two records with placeholder ids. */
export function batchOutputExample(schema: RecordSchema, withEvidence: boolean): string {
  const record = Object.entries(JSON.parse(recordOutputExample(schema, withEvidence)) as Record<string, unknown>);
  const idKey = batchIdKey(schema);
  const withId = (id: string) => Object.fromEntries([[idKey, id], ...record]);
  return JSON.stringify({ records: [withId('1'), withId('2')] }, null, 2);
}
