import { attributeDefinitionHash, type AttributeDefinition, type RecordSchema } from '../../../core/index.ts';

/** How a table's schema changes when it is ingested (or extended) with a new one. */
export interface SchemaChange {
  /** The schema the table has afterwards: the new schema's attributes, then the kept ones (and the new schema's entities). */
  schema: RecordSchema;
  /** Attributes the table did not have: new NULL columns, extracted by the next run. */
  added: AttributeDefinition[];
  /** Attributes whose definition changed: their values are cleared and extracted again. */
  changed: AttributeDefinition[];
  /** Attributes of the table the new schema does not name: their columns and values stay. */
  kept: AttributeDefinition[];
}

/** Compares a table's stored schema with a new one (see `SragStore.registerTable`). */
export function compareSchemas(stored: RecordSchema, next: RecordSchema): SchemaChange {
  const before = new Map(stored.attributes.map((attribute) => [attribute.name, attribute]));
  const named = new Set(next.attributes.map((attribute) => attribute.name));
  const added = next.attributes.filter((attribute) => !before.has(attribute.name));
  const changed = next.attributes.filter((attribute) => {
    const old = before.get(attribute.name);
    return old !== undefined && attributeDefinitionHash(old) !== attributeDefinitionHash(attribute);
  });
  const kept = stored.attributes.filter((attribute) => !named.has(attribute.name));
  return { schema: { ...next, attributes: [...next.attributes, ...kept] }, added, changed, kept };
}
