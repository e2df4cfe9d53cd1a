import { statSync } from 'node:fs';
import { isAbsolute, join, sep } from 'node:path';
import { globSync, isDynamicPattern } from 'tinyglobby';
import { canonicalPath } from './canonical-path.ts';
import { canonicalPathsByDirectory } from './canonical-paths-by-directory.ts';
import { friendlyPath, friendlyPaths } from './friendly-path.ts';
import { isPlainPath } from './is-plain-path.ts';

/** One file a document argument names. */
export interface DocumentPath {
  /** How to show it: relative to the working directory when it is inside it, else as given. */
  label: string;
  /**
   * The document's identity in the store: its canonical absolute path (symbolic links resolved),
   * the same whichever directory srag runs in and whichever way the file was named.
   */
  identity: string;
  /** The argument that named it. */
  pattern: string;
  /**
   * Set when a glob or a directory reached the file through a symbolic link that leads out of it:
   * where it leads. Such a file is not read unless asked (its content would go to the model
   * without anyone having named it); a link the user names itself is followed.
   */
  outsideTarget?: string;
}

/**
 * The files that document arguments name — globs, directories (every file under them) or plain
 * paths — one per identity, sorted by label. The CLI, `srag_extract` and the `read_text` list
 * share it so that the same argument means the same files everywhere; each caller says in its own
 * words what it means when nothing matches, and what it does with links out of the given paths.
 */
export function expandDocumentPaths(patterns: readonly string[], { followLinks = false, confineTo }: {
  followLinks?: boolean;
  /**
   * Keeps only files whose identity it accepts; the others are left out as if they did not exist
   * (`srag serve` reads nothing outside its folders, and says nothing about what is there).
   */
  confineTo?: (identity: string) => boolean;
} = {}): DocumentPath[] {
  const byIdentity = new Map<string, DocumentPath>();
  const canonical = canonicalPathsByDirectory();
  const friendly = friendlyPaths();
  for (const pattern of patterns) {
    const directory = !isDynamicPattern(pattern) && statSync(pattern, { throwIfNoEntry: false })?.isDirectory();
    const matches = isDynamicPattern(pattern)
      ? globFrom(pattern)
      : directory ? globSync(`${pattern.replace(/[\\/]$/, '')}/**/*`, { onlyFiles: true }) : statSync(pattern, { throwIfNoEntry: false }) ? [pattern] : [];
    const root = followLinks ? undefined : linkRoot(pattern);
    for (const path of matches) {
      const entry = documentPath(path, pattern, root, canonical, friendly);
      if (entry && confineTo && !confineTo(entry.identity)) continue;
      if (entry && !byIdentity.has(entry.identity)) byIdentity.set(entry.identity, entry);
    }
  }
  return [...byIdentity.values()].sort((left, right) => (left.label < right.label ? -1 : left.label > right.label ? 1 : 0));
}

/**
 * One file named by `pattern`, checked as `expandDocumentPaths` checks it (for a list of files
 * that came from such an expansion, e.g. `read_text`'s); undefined when it does not exist.
 */
export function documentPathOf(path: string, pattern: string, { followLinks = false }: { followLinks?: boolean } = {}): DocumentPath | undefined {
  return documentPath(path, pattern, followLinks ? undefined : linkRoot(pattern));
}

function documentPath(
  path: string, pattern: string, root: string | undefined, canonical: (path: string) => string = canonicalPath, friendly: (path: string, absolute: boolean) => string = friendlyPath,
): DocumentPath | undefined {
  let identity: string;
  try {
    identity = canonical(path);
  } catch {
    return undefined; // A dangling link names no document.
  }
  const entry: DocumentPath = { label: tailOf(identity, friendly(path, isAbsolute(pattern))), identity, pattern };
  if (root !== undefined && !isInside(identity, root)) entry.outsideTarget = identity;
  return entry;
}

/**
 * `label` itself, as the end of `identity` when it spells it (the usual case: a file under the
 * working directory, named without links): a slice of the identity costs 24 bytes of heap and lets
 * the glob's own path go, where the label kept that path (~64 bytes) alive as long as an ingest
 * holds its documents — 9 MB at 100,000 documents.
 */
function tailOf(identity: string, label: string): string {
  if (label === identity) return identity;
  const start = identity.length - label.length;
  return start > 0 && identity.endsWith(label) && identity[start - 1] === sep ? identity.slice(start) : label;
}

/**
 * The directory a glob or a directory argument confines its files to (canonical), or undefined
 * for a plain file, which is followed wherever it leads since the user named it.
 */
function linkRoot(pattern: string): string | undefined {
  let directory: string;
  if (isDynamicPattern(pattern)) {
    directory = splitGlob(pattern).base;
  } else if (statSync(pattern, { throwIfNoEntry: false })?.isDirectory()) {
    directory = pattern;
  } else {
    return undefined;
  }
  try {
    return canonicalPath(directory);
  } catch {
    return undefined;
  }
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/**
 * A glob's matches, searched from the directory its fixed leading segments name, in the form the
 * glob gave them (`/abs/docs/a.md` for `/abs/docs/*`, `docs/a.md` for `docs/*`). Given an
 * absolute pattern, tinyglobby searches from far above it: 38–83 ms for 512 files under a busy
 * `/tmp`, against 1.7 ms from the directory, in every srag_extract statement and ingest.
 */
function globFrom(pattern: string): string[] {
  const { base, rest } = splitGlob(pattern);
  const matches = globSync(rest, { cwd: base, onlyFiles: true, expandDirectories: false });
  if (base === '.') return matches;
  // A plain base and a plain relative match (no `.`, `..` or empty segment) join as they are: join's normalizing finds nothing to do.
  const prefix = base.endsWith('/') ? base : `${base}/`;
  const plainBase = isPlainPath(base) || (base === '/' && sep === '/');
  return matches.map((path) => (plainBase && isPlainPath(path) && !path.startsWith('/') ? `${prefix}${path}` : join(base, path)));
}

/**
 * A glob as the directory its fixed leading segments name ('.' when none, '/' for the root) and the
 * pattern below it. Globs separate with '/' only: a backslash escapes (`docs/x\[1\].md`), so a
 * segment holding one stays in the pattern, where the glob reads the escape.
 */
export function splitGlob(pattern: string): { base: string; rest: string } {
  const segments = pattern.split('/');
  let fixed = 0;
  while (fixed < segments.length - 1 && !isDynamicPattern(segments[fixed]!) && !segments[fixed]!.includes('\\')) fixed += 1;
  const base = segments.slice(0, fixed).join('/') || (fixed > 0 ? '/' : '.');
  return { base, rest: segments.slice(fixed).join('/') };
}
