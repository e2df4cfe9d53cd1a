/** A small deterministic generator (mulberry32), so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

const atoms = ['a', 'b', '.', '[ab]', '[^a]', '\\w', ' ', 'ab'];
const quantifiers = ['', '', '*', '+', '?', '{1,2}', '*?', '+?', '{2}'];

/**
 * Regular expressions over a two-letter alphabet (groups, alternation, greedy and lazy repetition,
 * anchors, word boundaries) with texts to match them against: the shapes where backtracking and
 * leftmost-first choices show, small enough for every case to run in DuckDB too.
 */
export function generatedPatterns(seed: number, count: number): Array<{ pattern: string; text: string }> {
  const next = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!;
  const expression = (depth: number): string => {
    const parts: string[] = [];
    const length = 1 + Math.floor(next() * 3);
    for (let index = 0; index < length; index += 1) {
      const roll = next();
      let atom = pick(atoms);
      if (depth < 2 && roll < 0.25) atom = `(${expression(depth + 1)})`;
      else if (depth < 2 && roll < 0.35) atom = `(?:${expression(depth + 1)}|${expression(depth + 1)})`;
      else if (roll < 0.4) atom = '\\b';
      parts.push(atom === '\\b' ? atom : atom + pick(quantifiers));
    }
    if (next() < 0.15) parts.unshift('^');
    if (next() < 0.15) parts.push('$');
    return parts.join('');
  };
  return Array.from({ length: count }, () => ({
    pattern: expression(0),
    text: Array.from({ length: Math.floor(next() * 9) }, () => pick(['a', 'b', 'a', ' '])).join(''),
  }));
}
