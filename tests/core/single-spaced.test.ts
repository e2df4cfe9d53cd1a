import { describe, expect, it } from 'vitest';
import { singleSpaced } from '../../core/text/single-spaced.ts';

describe('singleSpaced', () => {
  it('says what replacing every run of whitespace by one space says of every text', () => {
    const texts = ['', ' ', '  ', 'Pieter de Vries', 'Pieter  de Vries', ' lead', 'trail ', 'tab\there', 'line\nbreak', 'a \n b',
      'no\u00a0break', 'ideographic\u3000space', 'thin\u2009space', 'Zürich', 'emoji 😀 here', 'end\r\n', '\ufeffmark', 'x\u2028y'];
    for (const text of texts) expect([text, singleSpaced(text)]).toEqual([text, text.replace(/\s+/g, ' ')]);
  });

  it('gives back the very text when nothing changes', () => {
    const text = ['Opal', 'Square', 'Hotel'].join(' ');
    expect(singleSpaced(text)).toBe(text);
  });
});
