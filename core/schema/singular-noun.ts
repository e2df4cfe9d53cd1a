const unchanged = new Set(['series', 'species', 'news', 'status', 'bus', 'gas', 'analysis', 'basis', 'thesis', 'campus']);
const irregular: Record<string, string> = { people: 'person', children: 'child', men: 'man', women: 'woman', feet: 'foot', mice: 'mouse', criteria: 'criterion', data: 'datum' };

/**
 * The singular of an English plural, for suggested names: "facilities" → "facility", "boxes" →
 * "box", "languages" → "language", "addresses" → "address". Only the last word of a snake_case
 * name changes ("room_types" → "room_type"); a word that is not a plural is returned as it is.
 */
export function singularNoun(name: string): string {
  const lastSeparator = name.lastIndexOf('_');
  const head = name.slice(0, lastSeparator + 1);
  const word = name.slice(lastSeparator + 1);
  const lower = word.toLowerCase();
  if (unchanged.has(lower) || lower.endsWith('ss') || lower.endsWith('us') || lower.endsWith('is')) return name;
  if (irregular[lower]) return head + irregular[lower];
  if (/[^aeiou]ies$/.test(lower)) return `${head}${word.slice(0, -3)}y`;
  if (/(ch|sh|x|z|ss)es$/.test(lower)) return head + word.slice(0, -2);
  if (/ses$/.test(lower)) return head + word.slice(0, -1);
  if (/[^s]s$/.test(lower)) return head + word.slice(0, -1);
  return name;
}
