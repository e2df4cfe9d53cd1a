import { lstatSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { canonicalPath } from './canonical-path.ts';

/**
 * `canonicalPath` for many files in few directories (a glob's matches), each directory resolved
 * once: a file that is not itself a link is its directory's canonical path and its own name, which
 * one lstat tells, where realpath reads every component of every path again (3,000 files under
 * /tmp/…/docs: 18,000 readlink calls). A link, or a name such as `..`, is resolved whole, as
 * before. Linux only: elsewhere a file system may spell a name otherwise than it was given (a
 * case-insensitive one), which realpath of the whole path would settle, so every path is resolved
 * as `canonicalPath` does. Throws as it does for a path that does not exist. The directories are
 * remembered for as long as the returned function is kept: one expansion, not a process.
 * `resolve` and `platform` are for tests.
 */
export function canonicalPathsByDirectory(resolve: (path: string) => string = canonicalPath, platform = process.platform): (path: string) => string {
  if (platform !== 'linux') return resolve;
  const directories = new Map<string, string>();
  return (path) => {
    const name = basename(path);
    if (name === '' || name === '.' || name === '..' || lstatSync(path).isSymbolicLink()) return resolve(path);
    const directory = dirname(path);
    let canonicalDirectory = directories.get(directory);
    if (canonicalDirectory === undefined) {
      canonicalDirectory = resolve(directory);
      directories.set(directory, canonicalDirectory);
    }
    return join(canonicalDirectory, name);
  };
}
