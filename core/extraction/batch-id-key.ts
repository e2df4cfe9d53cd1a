import type { RecordSchema } from '../schema/attribute-definition.ts';

/**
 * The key that carries the document id in each record of a batch reply: "id", unless the schema
 * has a property or an entity of that name (a common column), then "_document", a name schemas may not use.
 */
export function batchIdKey(schema: RecordSchema): string {
  const taken = [...schema.attributes, ...(schema.entities ?? [])].some((named) => named.name === 'id');
  return taken ? '_document' : 'id';
}
