import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenCeiling } from '../../core/index.ts';
import { countTokens } from '../../node/runtime/count-tokens.ts';

/** Prose and numbers, accented letters, any UTF-16 unit (lone surrogates included) and any code point. */
const unit = fc.oneof(
  fc.constantFrom('a', 'the', ' ', '1', '2,500', '.', 'é', '€', '\n', '😀'),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
);

describe('tokenCeiling', () => {
  it('is never below the o200k count, for any text: prose, numbers, emoji, lone surrogates', () => {
    fc.assert(fc.property(fc.string({ unit }), (text) => {
      expect(tokenCeiling(text)).toBeGreaterThanOrEqual(countTokens(text));
    }), { numRuns: 200 });
  });

  it('is the UTF-8 length of text in the basic plane, and counts a surrogate pair as six', () => {
    for (const text of ['Hotel Amber, 4 stars', 'Prix : 120 €', 'Zürich — Genève', '']) expect(tokenCeiling(text)).toBe(Buffer.byteLength(text, 'utf8'));
    expect(tokenCeiling('😀')).toBe(6);
  });
});
