/** Edits (insert, delete, substitute, swap two neighbours) that turn `left` into `right`. */
function editDistance(left: string, right: string): number {
  const rows = left.length + 1;
  const columns = right.length + 1;
  const distances: number[][] = Array.from({ length: rows }, (_, row) => Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)));
  for (let row = 1; row < rows; row += 1) {
    for (let column = 1; column < columns; column += 1) {
      const substitution = left[row - 1] === right[column - 1] ? 0 : 1;
      let best = Math.min(distances[row - 1]![column]! + 1, distances[row]![column - 1]! + 1, distances[row - 1]![column - 1]! + substitution);
      if (row > 1 && column > 1 && left[row - 1] === right[column - 2] && left[row - 2] === right[column - 1]) best = Math.min(best, distances[row - 2]![column - 2]! + 1);
      distances[row]![column] = best;
    }
  }
  return distances[left.length]![right.length]!;
}

/**
 * The candidate a misspelt `word` most likely meant ("descripton" → "description"), or undefined
 * when none is close: at most one edit for words of up to four letters, two beyond, case ignored.
 */
export function closestWord(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const allowed = lower.length <= 4 ? 1 : 2;
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { candidate, distance };
  }
  return best?.candidate;
}
