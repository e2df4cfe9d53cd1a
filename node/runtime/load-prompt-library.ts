import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promptNames, type PromptLibrary } from '../../core/index.ts';

const promptDirectory = fileURLToPath(new URL('../../prompts/', import.meta.url));

let library: PromptLibrary | undefined;

/** Reads `prompts/*.md` once per process. */
export function loadPromptLibrary(): PromptLibrary {
  if (library) return library;
  const entries = promptNames.map((name) => [name, readFileSync(`${promptDirectory}${name}.md`, 'utf8')] as const);
  library = Object.fromEntries(entries) as PromptLibrary;
  return library;
}
