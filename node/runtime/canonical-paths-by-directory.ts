import { lstatSync, readdirSync } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import { canonicalPath } from './canonical-path.ts';

/**
 * Files asked for in one directory before its listing is read, rather than each file lstat'ed: a
 * glob's matches come many to a directory, and one listing of 3,000 names costs ~2 ms against
 * ~10 ms (and 3.7 MB of Stats objects) for 3,000 lstat calls; a few files named in a large
 * directory keep their lstat each.
 */
const listingAfterFiles = 32;

/** What one directory's listing says of a name: a symbolic link or not. */
type Listing = Map<string, boolean>;

interface Directory {
  asked: number;
  canonical?: string;
  listing?: Listing;
}

/**
 * `canonicalPath` for many files in few directories (a glob's matches), each directory resolved
 * once: a file that is not itself a link is its directory's canonical path and its own name, which
 * one lstat tells — or, past `listingAfter` files asked for in one directory, the directory's listing, read
 * once (3,000 files under /tmp/…/docs: 18,000 readlink calls for realpath, 3,000 lstat calls
 * before the listing). A link, or a name such as `..`, is resolved whole, as before; so is a name
 * the listing does not hold (created since, or gone: realpath throws for it). Linux only:
 * elsewhere a file system may spell a name otherwise than it was given (a case-insensitive one),
 * which realpath of the whole path would settle, so every path is resolved as `canonicalPath`
 * does. Throws as it does for a path that does not exist. The directories are remembered for as
 * long as the returned function is kept: one expansion, not a process. `resolve`, `platform` and
 * `listingAfter` are for tests.
 */
export function canonicalPathsByDirectory(resolve: (path: string) => string = canonicalPath, platform = process.platform, listingAfter = listingAfterFiles): (path: string) => string {
  if (platform !== 'linux') return resolve;
  const directories = new Map<string, Directory>();
  return (path) => {
    const name = basename(path);
    if (name === '' || name === '.' || name === '..') return resolve(path);
    const directoryPath = dirname(path);
    let directory = directories.get(directoryPath);
    if (directory === undefined) {
      directory = { asked: 0 };
      directories.set(directoryPath, directory);
    }
    directory.asked += 1;
    if (directory.listing === undefined && directory.asked > listingAfter) directory.listing = listingOf(directoryPath);
    const isLink = directory.listing?.get(name);
    if (isLink === undefined ? lstatSync(path).isSymbolicLink() : isLink) return resolve(path);
    directory.canonical ??= resolve(directoryPath);
    // Both parts are normal already (a canonical path, a plain name): what join would give, without its normalizing.
    return directory.canonical.endsWith(sep) ? `${directory.canonical}${name}` : `${directory.canonical}${sep}${name}`;
  };
}

/** Each name in `directory` and whether it is a symbolic link; empty when it cannot be listed (each file is then lstat'ed). */
function listingOf(directory: string): Listing {
  const listing: Listing = new Map();
  try {
    for (const entry of readdirSync(directory, { withFileTypes: true })) listing.set(entry.name, entry.isSymbolicLink());
  } catch {
    // Listed or not, each file is still found: by its own lstat.
  }
  return listing;
}
