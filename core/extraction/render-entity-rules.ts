import type { RecordSchema } from '../schema/attribute-definition.ts';

/**
 * The extraction prompt's rule for child entities, on the line after the other rules; empty when
 * the schema declares none, so that the prompt of every other schema stays byte for byte the same
 * (and providers' prompt caches keep hitting).
 */
export function renderEntityRules(schema: RecordSchema): string {
  const names = (schema.entities ?? []).map((entity) => JSON.stringify(entity.name));
  if (names.length === 0) return '';
  return `\n- A list (${names.join(', ')}) holds one object per item the document lists, in its order, with the item's properties; [] when it lists none.`;
}
