import type { AttributeDefinition, RecordSchema } from './attribute-definition.ts';

const scaleNames = new Map<number, string>([[1e3, 'thousands'], [1e6, 'millions'], [1e9, 'billions'], [1e12, 'trillions']]);

/** The JSON-Schema document a `RecordSchema` is saved as; `parseRecordSchema` reads it back unchanged. */
export function recordSchemaToJsonSchema(schema: RecordSchema): Record<string, unknown> {
  const document: Record<string, unknown> = { title: schema.title, type: 'object', properties: propertiesOf(schema.attributes), required: schema.attributes.map((attribute) => attribute.name) };
  if (schema.entities?.length) {
    document.entities = Object.fromEntries(schema.entities.map((entity) => [entity.name, { description: entity.description, properties: propertiesOf(entity.attributes) }]));
  }
  return document;
}

function propertiesOf(attributes: AttributeDefinition[]): Record<string, unknown> {
  // Built from entries: an assignment would drop a property named "__proto__" (a real column name in some data sets).
  const properties: Array<[string, unknown]> = [];
  for (const attribute of attributes) {
    const property: Record<string, unknown> = {
      type: attribute.kind === 'date' ? 'string' : attribute.kind,
    };
    if (attribute.kind === 'date') property.format = 'date';
    property.description = attribute.description;
    property.examples = attribute.examples;
    if (attribute.unit !== undefined) property.unit = attribute.unit;
    if (attribute.scale !== undefined && attribute.scale !== 1) property.scale = scaleNames.get(attribute.scale) ?? attribute.scale;
    properties.push([attribute.name, property]);
  }
  return Object.fromEntries(properties);
}
