/**
 * A count with its noun in the right number: `countNoun(1, 'retry', 'retries')` → "1 retry",
 * `countNoun(3, 'document')` → "3 documents". For every message that states a count.
 */
export function countNoun(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
