import { lstatSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { isDynamicPattern } from 'tinyglobby';
import { SragError } from '../../core/index.ts';
import { canonicalPath } from '../runtime/canonical-path.ts';
import { splitGlob } from '../runtime/expand-document-paths.ts';

/**
 * The folders `srag serve` reads documents and schema files from: the folder it was started in,
 * or the ones `--allow-path` names. Anyone who reaches the API may name a path, so every path is
 * checked before anything reads it: written with `..` or through a symbolic link, a path whose
 * canonical form leaves the folders is refused, and a glob's matches outside them are left out
 * as if they did not exist. A path outside gets the same refusal whether or not anything is
 * there: the answer must not tell which files exist on the host.
 */
export class ServedFolders {
  private constructor(
    /** Canonical absolute paths: symbolic links resolved. */
    readonly folders: readonly string[],
    /** The folders as given, made absolute (the lexical check: a path written under a link to a folder is in it too). */
    private readonly givenFolders: readonly string[],
    /** Where relative paths are read from: the server's working directory. */
    readonly directory: string,
  ) {}

  /** The folders `allowed` names (relative to `directory`), or `directory` itself when none is named. */
  static open(allowed: readonly string[], directory: string): ServedFolders {
    const given = (allowed.length > 0 ? allowed : [directory]).map((folder) => resolve(directory, folder));
    const folders = given.map((folder, index) => {
      const named = allowed.length > 0 ? `--allow-path ${allowed[index]}` : `the working directory ${folder}`;
      let canonical: string;
      try {
        canonical = canonicalPath(folder);
      } catch (error) {
        throw new SragError({ code: 'INPUT_INVALID', message: `${named}: no such folder (${(error as NodeJS.ErrnoException).code ?? 'error'})`, hint: 'pass a folder that exists', cause: error });
      }
      if (!statSync(canonical).isDirectory()) throw new SragError({ code: 'INPUT_INVALID', message: `${named} is a file, not a folder`, hint: 'pass the folder that holds the documents' });
      return canonical;
    });
    return new ServedFolders([...new Set(folders)], [...new Set([...given, ...folders])], directory);
  }

  /** Whether a canonical path (a document's identity) is inside a served folder. */
  holds(canonical: string): boolean {
    return this.folders.some((folder) => isInside(canonical, folder));
  }

  /**
   * `path` (a file, a folder or a glob, relative to the working directory) made absolute, when it
   * stays inside the served folders; otherwise the refusal. A plain path is followed through its
   * links as far as it exists; a glob is checked up to its first wildcard (what it matches beyond
   * that is filtered by `holds`), and may not climb with `..`.
   */
  confine(path: string, what: string): string {
    const absolute = resolve(this.directory, path);
    if (isDynamicPattern(path)) {
      const climbs = absolute.split(/[\\/]/).some((segment) => segment.split(/[{},()|]/).includes('..'));
      if (climbs || !this.insideLexically(splitGlob(absolute).base)) throw this.refusal(path, what);
      return absolute;
    }
    if (!this.insideLexically(absolute)) throw this.refusal(path, what);
    const canonical = canonicalPrefix(absolute);
    if (canonical === undefined || !this.holds(canonical)) throw this.refusal(path, what);
    return absolute;
  }

  private insideLexically(absolute: string): boolean {
    return this.givenFolders.some((folder) => isInside(absolute, folder));
  }

  private refusal(path: string, what: string): SragError {
    const folders = this.folders.join(', ');
    return new SragError({
      code: 'INPUT_INVALID',
      message: `${what} "${path}" is outside the ${this.folders.length === 1 ? 'folder' : 'folders'} srag serve reads (${folders})`,
      hint: 'name a file under it by a path that stays there, or start srag serve with --allow-path DIR for each folder it may read',
    });
  }
}

function isInside(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : `${folder}${sep}`);
}

/**
 * The canonical form of `absolute` as far as it exists: the longest leading part that is there
 * (a dangling link counts as there) resolved through its links, then the rest as written.
 * Undefined when that part cannot be resolved (a dangling link): such a path is refused like one
 * outside, so that whether its target exists makes no difference to the answer.
 */
function canonicalPrefix(absolute: string): string | undefined {
  const rest: string[] = [];
  let existing = absolute;
  while (!exists(existing)) {
    const parent = dirname(existing);
    if (parent === existing) return undefined;
    rest.unshift(basename(existing));
    existing = parent;
  }
  try {
    return join(canonicalPath(existing), ...rest);
  } catch {
    return undefined;
  }
}

function exists(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
