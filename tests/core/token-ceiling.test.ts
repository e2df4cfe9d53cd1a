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

  it('counts every unit, wherever the first that is not ASCII stands: one byte for ASCII, two up to U+07FF, three above', () => {
    const byUnit = (text: string) => [...Array(text.length).keys()].reduce((bytes, index) => {
      const code = text.charCodeAt(index);
      return bytes + (code < 0x80 ? 1 : code < 0x800 ? 2 : 3);
    }, 0);
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', ' ', '\n', '\u007f') }), fc.string({ unit }), (ascii, rest) => {
      expect(tokenCeiling(ascii + rest)).toBe(byUnit(ascii + rest));
      expect(tokenCeiling(rest + ascii)).toBe(byUnit(rest + ascii));
    }), { numRuns: 300 });
    expect(tokenCeiling('x'.repeat(5_000))).toBe(5_000);
    expect(tokenCeiling(`${'x'.repeat(5_000)}\u0080${'y'.repeat(10)}\u0800`)).toBe(5_000 + 2 + 10 + 3);
  });

  it('is the UTF-8 length of text in the basic plane, and counts a surrogate pair as six', () => {
    for (const text of ['Hotel Amber, 4 stars', 'Prix : 120 €', 'Zürich — Genève', '']) expect(tokenCeiling(text)).toBe(Buffer.byteLength(text, 'utf8'));
    expect(tokenCeiling('😀')).toBe(6);
  });
});
