import { contentHash } from '../hashing/content-hash.ts';
import type { AttributeDefinition } from './attribute-definition.ts';

/**
 * What identifies an attribute's definition in the ingestion log: a short hash of everything that
 * decides its values — name, type, description, unit, scale and examples. Two definitions with the
 * same hash extract the same values, so a value extracted under one is still good under the other;
 * any other change (one word of the description) means the column is extracted again.
 */
export function attributeDefinitionHash(attribute: AttributeDefinition, hashText: (text: string) => string = contentHash): string {
  const identity = JSON.stringify([attribute.name, attribute.kind, attribute.description, attribute.unit ?? null, attribute.scale ?? null, attribute.examples]);
  let hash = rememberedHashes.get(identity);
  if (hash === undefined) {
    hash = hashText(identity).slice(0, 16);
    if (rememberedHashes.size >= rememberedDefinitions) rememberedHashes.delete(rememberedHashes.keys().next().value!);
    rememberedHashes.set(identity, hash);
  }
  return hash;
}

/**
 * The last definitions hashed (every `hashText` is SHA-256, so the hash is the same whichever did
 * it): the scalar `srag_extract` over `read_text` starts a run per row, and each run hashed every
 * attribute of the schema again.
 */
const rememberedHashes = new Map<string, string>();
const rememberedDefinitions = 256;
