import { promptNames } from '../../../core/index.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from './repository-root.ts';
import { firstLine } from './text-matching.ts';
import type { RequestKind } from './types.ts';

/** Every prompt the pipeline sends as a request. */
const templateKinds = [...promptNames] as RequestKind[];

/**
 * Maps each template's first line ("Task: ...") to its kind, read from `prompts/*.md`, so the
 * stand-in follows the templates when their wording changes.
 */
export function loadPromptIdentities(promptsDirectory = path.join(repositoryRoot, 'prompts')): Map<string, RequestKind> {
  const identities = new Map<string, RequestKind>();
  for (const kind of templateKinds) {
    const identity = firstLine(readFileSync(path.join(promptsDirectory, `${kind}.md`), 'utf8'));
    identities.set(identity, kind);
  }
  return identities;
}
