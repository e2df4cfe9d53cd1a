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
    const value = { type: valueTypes(attribute), description: attribute.description };
    return [attribute.name, withEvidence
      ? {
          type: 'object',
          additionalProperties: false,
          required: ['value', 'quote'],
          properties: {
            value,
            quote: { type: ['string', 'null'], description: 'Verbatim passage of the document stating the value; null when the value is null.' },
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

/** The output form shown in the prompt, for endpoints without structured output. */
export function recordOutputExample(schema: RecordSchema, withEvidence: boolean): string {
  const example = Object.fromEntries(schema.attributes.map((attribute) => {
    const sample = attribute.examples[0] ?? null;
    return [attribute.name, withEvidence ? { value: sample, quote: 'verbatim passage of the document' } : sample];
  }));
  return JSON.stringify(example, null, 2);
}
