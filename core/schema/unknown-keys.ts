import { closestWord } from './closest-word.ts';

/**
 * The keys of `object` that are not among `known`, each with the known key it most likely
 * misspells (one the object lacks), and the known keys so meant: a misspelt key is reported once,
 * as itself, and the key it stands for is then not also reported missing.
 */
export function unknownKeys(object: Record<string, unknown>, known: readonly string[]): { unknown: Array<{ key: string; suggestion: string | undefined }>; meant: Set<string> } {
  const unknown: Array<{ key: string; suggestion: string | undefined }> = [];
  const meant = new Set<string>();
  for (const key of Object.keys(object)) {
    if (known.includes(key)) continue;
    const suggestion = closestWord(key, known.filter((candidate) => object[candidate] === undefined));
    if (suggestion) meant.add(suggestion);
    unknown.push({ key, suggestion });
  }
  return { unknown, meant };
}
