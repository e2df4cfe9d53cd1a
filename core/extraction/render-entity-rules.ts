import type { RecordSchema } from '../schema/attribute-definition.ts';

/**
 * The extraction prompt's rule for child entities, on the template line of the evidence rule
 * (`{{evidence_rules}}{{entity_rules}}`): after it on a line of its own when `withEvidence` puts
 * one there, in its place otherwise. Empty when the schema declares none, so that the prompt of
 * every other schema stays byte for byte the same (and providers' prompt caches keep hitting).
 */
export function renderEntityRules(schema: RecordSchema, withEvidence: boolean): string {
  const names = (schema.entities ?? []).map((entity) => JSON.stringify(entity.name));
  if (names.length === 0) return '';
  const rule = `- A list (${names.join(', ')}) holds one object per item the document lists, in its order, with the item's properties; [] when it lists none.`;
  return withEvidence ? `\n${rule}` : rule;
}
