import type { AttributeDefinition, RecordSchema } from '../schema/attribute-definition.ts';
import type { OutputSchema } from '../ports/language-model.ts';

/**
 * The JSON Schema sent as structured output for one record (OpenAI strict mode: every field
 * required, nullable instead of optional, no additional properties). Numbers may come back as
 * strings ("$1.2M") because normalization happens in code, not only in the prompt. A child entity
 * is a list of flat records of its own attributes (see `ChildEntity`).
 */
export function recordOutputSchema(schema: RecordSchema, withEvidence: boolean): OutputSchema {
  // One per schema object and mode: a run asks with the same schema for every document, and the
  // model client writes each output schema as text once (see `ModelClient.cacheKey`).
  let made = madeFor.get(schema);
  if (!made) madeFor.set(schema, made = {});
  const key = withEvidence ? 'withEvidence' : 'withoutEvidence';
  const entities = schema.entities ?? [];
  return made[key] ??= {
    name: 'record',
    schema: objectSchema(schema.attributes, withEvidence, entities.map((entity) => [entity.name, { type: 'array', items: objectSchema(entity.attributes, withEvidence) }])),
  };
}

/** The output schemas made for a record schema (both are read-only once made). */
const madeFor = new WeakMap<RecordSchema, { withEvidence?: OutputSchema; withoutEvidence?: OutputSchema }>();

function objectSchema(attributes: AttributeDefinition[], withEvidence: boolean, lists: Array<[string, unknown]> = []): Record<string, unknown> {
  return {
    type: 'object',
    additionalProperties: false,
    required: [...attributes.map((attribute) => attribute.name), ...lists.map(([name]) => name)],
    // Built from entries, as everywhere a record is keyed by property name: "__proto__" must stay a key.
    properties: Object.fromEntries([...attributes.map((attribute) => [attribute.name, attributeOutputSchema(attribute, withEvidence)]), ...lists]),
  };
}

function attributeOutputSchema(attribute: AttributeDefinition, withEvidence: boolean): Record<string, unknown> {
  // No descriptions here: the prompt states each property's meaning once; repeating it (and the
  // quote's) per property in the output schema doubled what the endpoint counts as prompt.
  const value = { type: valueTypes(attribute) };
  return withEvidence
    ? {
        type: 'object',
        additionalProperties: false,
        required: ['value', 'quote'],
        properties: {
          value,
          quote: { type: ['string', 'null'] },
        },
      }
    : value;
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
 * property list at a line per brace); a child entity shows one item the same way.
 */
export function recordOutputExample(schema: RecordSchema, withEvidence: boolean): string {
  return exampleText(recordExample(schema, withEvidence), schema);
}

/**
 * The example record's first properties as a value (entries, not assignments: a property may be
 * named "__proto__"), and for each child entity a list of one such item.
 */
export function recordExample(schema: RecordSchema, withEvidence: boolean): Record<string, unknown> {
  const first = (attributes: AttributeDefinition[]) => attributes.slice(0, exampleProperties).map((attribute): [string, unknown] => {
    const sample = attribute.examples[0] ?? null;
    return [attribute.name, withEvidence ? { value: sample, quote: '…' } : sample];
  });
  const lists = (schema.entities ?? []).map((entity): [string, unknown] => [entity.name, [Object.fromEntries(first(entity.attributes))]]);
  return Object.fromEntries([...first(schema.attributes), ...lists]);
}

/**
 * `JSON.stringify(example)` with `, …` before the closing brace when properties were left out, and
 * each child entity's list after them, as `"rooms": [<item>, …]`.
 */
export function exampleText(example: Record<string, unknown>, schema: RecordSchema): string {
  const lists = new Set((schema.entities ?? []).map((entity) => entity.name));
  let text = JSON.stringify(Object.fromEntries(Object.entries(example).filter(([name]) => !lists.has(name))));
  const append = (entry: string) => {
    text = `${text.slice(0, -1)}${text === '{}' ? '' : ', '}${entry}}`;
  };
  if (schema.attributes.length > exampleProperties) append('…');
  for (const entity of schema.entities ?? []) {
    const item = (example[entity.name] as Array<Record<string, unknown>>)[0]!;
    append(`${JSON.stringify(entity.name)}: [${exampleText(item, { title: entity.name, attributes: entity.attributes })}, …]`);
  }
  return text;
}
