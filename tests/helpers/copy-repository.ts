import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { repositoryRoot } from './run-srag.ts';

/**
 * A copy of the repository's files as git would check them out (tracked and new, not ignored), in
 * a new directory named `prefix…`, with the installed packages linked (see `linkPackages`).
 */
export function copyRepository(prefix: string): string {
  const directory = mkdtempSync(join(tmpdir(), prefix));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: repositoryRoot, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    mkdirSync(dirname(join(directory, file)), { recursive: true });
    try {
      cpSync(join(repositoryRoot, file), join(directory, file));
    } catch (error) {
      // A file deleted in the working tree but still in the index is not part of the checkout.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  linkPackages(directory);
  return directory;
}

/**
 * Gives a copy of the repository the repository's installed packages: `directory/node_modules`
 * holds a link to each of them, but a cache of its own — srag bundles a clone's CLI and workers
 * into `node_modules/.cache/srag/` (see ready-bundle.mjs), and a copy's bundles, built from its own
 * files, belong to the copy and go with it rather than piling up in the repository's cache.
 */
export function linkPackages(directory: string): void {
  const modules = join(directory, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const entry of readdirSync(join(repositoryRoot, 'node_modules'))) {
    if (entry !== '.cache') symlinkSync(join(repositoryRoot, 'node_modules', entry), join(modules, entry));
  }
}
