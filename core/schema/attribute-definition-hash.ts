import { contentHash } from '../hashing/content-hash.ts';
import type { AttributeDefinition } from './attribute-definition.ts';

/**
 * What identifies an attribute's definition in the ingestion log: a short hash of everything that
 * decides its values — name, type, description, unit, scale and examples. Two definitions with the
 * same hash extract the same values, so a value extracted under one is still good under the other;
 * any other change (one word of the description) means the column is extracted again.
 */
export function attributeDefinitionHash(attribute: AttributeDefinition, hashText: (text: string) => string = contentHash): string {
  const identity = [attribute.name, attribute.kind, attribute.description, attribute.unit ?? null, attribute.scale ?? null, attribute.examples];
  return hashText(JSON.stringify(identity)).slice(0, 16);
}
