/** A seeded generator (a linear congruential one is enough here), so a failing query can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const functions = [
  'abs', 'round', 'length', 'lower', 'concat', 'replace', 'substring', 'repeat', 'printf', 'format', 'regexp_matches', 'regexp_replace',
  'regexp_extract', 'strftime', 'date_diff', 'make_date', 'coalesce', 'greatest', 'split_part', 'power', 'constructor', '__proto__', 'toString', 'valueOf',
];
const aggregates = ['count', 'sum', 'avg', 'min', 'string_agg', 'median', 'mode', 'arg_max'];
const literals = [
  '1', '0', '-1', '2.5', '1e300', '99999999', 'NULL', 'TRUE', "'x'", "''", "'%d'", "'%999999999d'", "'%.200f'", "'%c'", "'(a+)+$'", "'%a%a%'",
  "'2020-02-29'", "'year'", "'{:.500f}'", "'\\\\1'", "'[z-a]'", "'('", "DATE '2021-03-04'", "INTERVAL 3 day",
];

/**
 * Random SELECTs over `notes(id, body)`: calls with odd arguments (huge widths, bad patterns,
 * prototype names), nesting, casts, CASE, LIKE, IN, subqueries and aggregates — the shapes a
 * confused or hostile model could write.
 */
export function randomQueries(seed: number, count: number): string[] {
  const next = random(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)]!;
  const expression = (depth: number): string => {
    const roll = next();
    if (depth > 3 || roll < 0.25) return pick([...literals, 'id', 'body', 'body', 'id']);
    const inner = () => expression(depth + 1);
    if (roll < 0.45) return `${pick(functions)}(${Array.from({ length: 1 + Math.floor(next() * 3) }, inner).join(', ')})`;
    if (roll < 0.55) return `${inner()} ${pick(['+', '-', '*', '/', '%', '||', '=', '<', 'AND', 'OR', 'LIKE', 'ILIKE'])} ${inner()}`;
    if (roll < 0.62) return `CASE WHEN ${inner()} THEN ${inner()} ELSE ${inner()} END`;
    if (roll < 0.68) return `CAST(${inner()} AS ${pick(['INTEGER', 'DOUBLE', 'VARCHAR', 'DATE', 'BOOLEAN'])})`;
    if (roll < 0.74) return `${inner()} IN (${inner()}, ${inner()})`;
    if (roll < 0.8) return `(SELECT ${inner()} FROM notes LIMIT 1)`;
    if (roll < 0.86) return `${pick(['NOT ', '-', ''])}(${inner()})`;
    return `${pick(aggregates)}(${inner()})`;
  };
  return Array.from({ length: count }, () => {
    const where = next() < 0.3 ? ` WHERE ${expression(1)}` : '';
    const group = next() < 0.2 ? ' GROUP BY id' : '';
    return `SELECT ${expression(0)}, ${expression(0)} FROM notes${where}${group}`;
  });
}
