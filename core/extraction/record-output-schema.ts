import type { AttributeDefinition, RecordSchema } from '../schema/attribute-definition.ts';
import type { OutputSchema } from '../ports/language-model.ts';

/**
 * The JSON Schema sent as structured output for one record (OpenAI strict mode: every field
 * required, nullable instead of optional, no additional properties). Numbers may come back as
 * strings ("$1.2M") because normalization happens in code, not only in the prompt.
 */
export function recordOutputSchema(schema: RecordSchema, withEvidence: boolean): OutputSchema {
  // Built from entries, as everywhere a record is keyed by property name: "__proto__" must stay a key.
  const properties = Object.fromEntries(schema.attributes.map((attribute) => {
    // No descriptions here: the prompt states each property's meaning once; repeating it (and the
    // quote's) per property in the output schema doubled what the endpoint counts as prompt.
    const value = { type: valueTypes(attribute) };
    return [attribute.name, withEvidence
      ? {
          type: 'object',
          additionalProperties: false,
          required: ['value', 'quote'],
          properties: {
            value,
            quote: { type: ['string', 'null'] },
          },
        }
      : value];
  }));
  return {
    name: 'record',
    schema: {
      type: 'object',
      additionalProperties: false,
      required: schema.attributes.map((attribute) => attribute.name),
      properties,
    },
  };
}

function valueTypes(attribute: AttributeDefinition): string[] {
  switch (attribute.kind) {
    case 'number':
    case 'integer':
      return [attribute.kind, 'string', 'null'];
    case 'boolean':
      return ['boolean', 'null'];
    default:
      return ['string', 'null'];
  }
}

/** Properties the prompt's output example spells out; the rest are "…" (the prompt lists them all once). */
const exampleProperties = 2;

/**
 * The output form shown in the prompt, for endpoints without structured output: one line, the
 * first properties with their first example, then "…" (a full pretty-printed record repeated the
 * property list at a line per brace).
 */
export function recordOutputExample(schema: RecordSchema, withEvidence: boolean): string {
  return exampleText(recordExample(schema, withEvidence), schema);
}

/** The example record's first properties as a value (entries, not assignments: a property may be named "__proto__"). */
export function recordExample(schema: RecordSchema, withEvidence: boolean): Record<string, unknown> {
  return Object.fromEntries(schema.attributes.slice(0, exampleProperties).map((attribute) => {
    const sample = attribute.examples[0] ?? null;
    return [attribute.name, withEvidence ? { value: sample, quote: '…' } : sample];
  }));
}

/** `JSON.stringify(example)` with `, …` before the closing brace when properties were left out. */
export function exampleText(example: Record<string, unknown>, schema: RecordSchema): string {
  const json = JSON.stringify(example);
  return schema.attributes.length > exampleProperties ? `${json.slice(0, -1)}, …}` : json;
}
