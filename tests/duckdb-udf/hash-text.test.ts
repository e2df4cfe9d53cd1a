import { describe, expect, it } from 'vitest';
import { contentHash } from '../../core/index.ts';
import { hashText, hashTexts } from '../../node/runtime/hash-text.ts';

const texts = ['', 'abc', 'é \u2014 \u2028', 'pair \ud83d\ude00, lone \ud800 and \udc00', 'x'.repeat(70_000), '\u00e9'.repeat(30_000)];

describe('the native SHA-256 of srag for Node', () => {
  it('gives the portable hash\'s digest of any text: keys and content hashes carry over between Node and Apps Script', () => {
    for (const text of texts) expect({ length: text.length, hash: hashText(text) }).toEqual({ length: text.length, hash: contentHash(text) });
    expect(hashText('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes texts one after another as their concatenation', () => {
    expect(hashTexts(texts)).toBe(contentHash(texts.join('')));
    expect(hashTexts([])).toBe(contentHash(''));
    expect(hashTexts(['[', '"m"', ',', '[]', ']'])).toBe(hashText('["m",[]]'));
  });
});
