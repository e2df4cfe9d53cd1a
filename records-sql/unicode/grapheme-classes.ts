/**
 * The letters of the grapheme-break table (`grapheme-break-table.ts`) and what each stands for in
 * utf8proc, the library DuckDB splits text into grapheme clusters with: the code point's bound
 * class and its Indic conjunct break class (Unicode 15.1's rule GB9c). `h` is a Hangul syllable,
 * LV when it is the first of its block of 28 (U+AC00 + 28·n) and LVT otherwise, as Unicode
 * defines them, so the table need not list 11,172 syllables one by one.
 */
export const graphemeClasses = {
  o: { bound: 'OTHER', conjunct: 'NONE' },
  s: { bound: 'START', conjunct: 'NONE' },
  r: { bound: 'CR', conjunct: 'NONE' },
  n: { bound: 'LF', conjunct: 'NONE' },
  c: { bound: 'CONTROL', conjunct: 'NONE' },
  x: { bound: 'EXTEND', conjunct: 'NONE' },
  y: { bound: 'EXTEND', conjunct: 'EXTEND' },
  k: { bound: 'EXTEND', conjunct: 'LINKER' },
  w: { bound: 'ZWJ', conjunct: 'NONE' },
  z: { bound: 'ZWJ', conjunct: 'EXTEND' },
  m: { bound: 'SPACINGMARK', conjunct: 'NONE' },
  p: { bound: 'PREPEND', conjunct: 'NONE' },
  l: { bound: 'L', conjunct: 'NONE' },
  v: { bound: 'V', conjunct: 'NONE' },
  t: { bound: 'T', conjunct: 'NONE' },
  h: { bound: 'LV_OR_LVT', conjunct: 'NONE' },
  i: { bound: 'REGIONAL_INDICATOR', conjunct: 'NONE' },
  e: { bound: 'EXTENDED_PICTOGRAPHIC', conjunct: 'NONE' },
  q: { bound: 'OTHER', conjunct: 'CONSONANT' },
} as const;

export type GraphemeClassLetter = keyof typeof graphemeClasses;
export type BoundClass = (typeof graphemeClasses)[GraphemeClassLetter]['bound'] | 'LV' | 'LVT';
export type ConjunctClass = (typeof graphemeClasses)[GraphemeClassLetter]['conjunct'];

export const firstHangulSyllable = 0xac00;
export const hangulSyllablesPerLeadingConsonantAndVowel = 28;
