import type { OutputSchema } from '../ports/language-model.ts';
import type { RecordSchema } from '../schema/attribute-definition.ts';
import { batchIdKey } from './batch-id-key.ts';
import { exampleText, recordExample, recordOutputSchema } from './record-output-schema.ts';

/**
 * Structured output for several records in one reply: `{"records": [{"id": ..., <record>}, ...]}`
 * (the id under `batchIdKey`). The array sits under a key because strict structured output wants an
 * object at the top. One per schema object and mode, as `recordOutputSchema`: the model client
 * writes an output schema as text once per object (see `ModelClient.requestKey`), and a run sends
 * the same one with every call — built anew per call, it was written out again per call.
 */
export function batchOutputSchema(schema: RecordSchema, withEvidence: boolean): OutputSchema {
  let made = madeFor.get(schema);
  if (!made) madeFor.set(schema, made = {});
  return made[withEvidence ? 'withEvidence' : 'withoutEvidence'] ??= buildBatchOutputSchema(schema, withEvidence);
}

const madeFor = new WeakMap<RecordSchema, { withEvidence?: OutputSchema; withoutEvidence?: OutputSchema }>();

function buildBatchOutputSchema(schema: RecordSchema, withEvidence: boolean): OutputSchema {
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
            properties: Object.fromEntries([[idKey, { type: 'string' }], ...Object.entries(record.properties)]),
          },
        },
      },
    },
  };
}

/** The output form shown in the prompt: one line, the example record under id "1", then "…" for the other documents. */
export function batchOutputExample(schema: RecordSchema, withEvidence: boolean): string {
  const record = Object.fromEntries([[batchIdKey(schema), '1'], ...Object.entries(recordExample(schema, withEvidence))]);
  return `{"records": [${exampleText(record, schema)}, …]}`;
}
