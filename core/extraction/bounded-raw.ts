/** The most values and the deepest nesting of a raw reply value kept as evidence. */
const mostValues = 200;
const deepestNesting = 16;
const longestText = 2_000;

/**
 * A raw model value as it can be kept as evidence and stored: unchanged when it is small, else a
 * one-line description of it. A reply may hold a value nested 100,000 levels deep or a
 * megabyte-long text; kept as it is, it would break the record's store (JSON.stringify overflows
 * the stack) instead of one cell. Walks at most `mostValues` values, without recursion.
 */
export function boundedRaw(raw: unknown): unknown {
  if (typeof raw === 'string') return raw.length > longestText ? `${raw.slice(0, longestText)}… (${raw.length} characters)` : raw;
  if (typeof raw === 'bigint') return raw.toString();
  if (typeof raw !== 'object' || raw === null) return typeof raw === 'function' || typeof raw === 'symbol' ? String(raw) : raw;
  const pending: Array<[unknown, number]> = [[raw, 1]];
  let seen = 0;
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    seen += 1;
    if (seen > mostValues) return `[${Array.isArray(raw) ? 'a list' : 'an object'} of more than ${mostValues} values]`;
    if (depth > deepestNesting) return `[${Array.isArray(raw) ? 'a list' : 'an object'} nested more than ${deepestNesting} levels deep]`;
    if (typeof value === 'string' && value.length > longestText) return `[${Array.isArray(raw) ? 'a list' : 'an object'} holding a text of ${value.length} characters]`;
    if (typeof value === 'object' && value !== null) for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return raw;
}
