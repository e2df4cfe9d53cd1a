import { describe, expect, it } from 'vitest';
import { attributeDefinitionHash, contentHash, type AttributeDefinition } from '../../core/index.ts';
import { hashText } from '../../node/runtime/hash-text.ts';

const price: AttributeDefinition = { name: 'price_per_night', kind: 'number', description: 'Price of one night in a double room.', examples: [120, 89.5], unit: 'USD' };

describe('attributeDefinitionHash', () => {
  it('gives a definition the same short hash every time, with the portable or the native SHA-256', () => {
    const first = attributeDefinitionHash(price);
    expect(first).toMatch(/^[0-9a-f]{16}$/);
    expect(attributeDefinitionHash({ ...price, examples: [...price.examples] })).toBe(first);
    expect(attributeDefinitionHash(price, hashText)).toBe(first);
    expect(first).toBe(contentHash(JSON.stringify([price.name, price.kind, price.description, price.unit, null, price.examples])).slice(0, 16));
  });

  it('changes with anything that decides the values, also for a definition hashed just before', () => {
    const hashes = [
      price,
      { ...price, description: 'Price of one night in a single room.' },
      { ...price, kind: 'integer' as const },
      { ...price, unit: 'EUR' },
      { ...price, scale: 1000 },
      { ...price, examples: [89.5, 120] },
      { ...price, name: 'price' },
    ].map((definition) => attributeDefinitionHash(definition));
    expect(new Set(hashes).size).toBe(hashes.length);
    // Hashed again after the others: still its own.
    expect(attributeDefinitionHash(price)).toBe(hashes[0]);
    expect(attributeDefinitionHash({ ...price, unit: 'EUR' })).toBe(hashes[3]);
  });
});
