import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isPlainPath } from './is-plain-path.ts';

/**
 * How srag shows a path: relative to the working directory when the file is inside it; otherwise
 * absolute when `absolute` (the user named it that way), else as it is ('../docs/a.txt').
 */
export function friendlyPath(path: string, absolute = isAbsolute(path)): string {
  const full = resolve(path);
  const fromWorkingDirectory = relative(process.cwd(), full);
  if (fromWorkingDirectory && !fromWorkingDirectory.startsWith('..') && !isAbsolute(fromWorkingDirectory)) return fromWorkingDirectory;
  return absolute ? full : path;
}

/**
 * `friendlyPath` for many paths at once (a glob's matches), the working directory read once: the
 * same text, without resolving and relating each path (~5 MB of strings for 3,000 paths) where it
 * is plain already — a POSIX path with no `.`, `..` or empty segment is its own resolved form.
 * Others go to `friendlyPath`. For one expansion: the working directory is not read again.
 */
export function friendlyPaths(): (path: string, absolute?: boolean) => string {
  const workingDirectory = process.cwd();
  const inside = workingDirectory.endsWith(sep) ? workingDirectory : `${workingDirectory}${sep}`;
  return (path, absolute = isAbsolute(path)) => {
    if (!isPlainPath(path) || path.startsWith('..')) return friendlyPath(path, absolute);
    // Relative and plain: resolved, it is inside the working directory, and relative to it, itself.
    if (!path.startsWith(sep)) return path;
    // Absolute and plain: resolved, itself; relative to the working directory when inside it (and not named `..…`).
    return path.length > inside.length && path.startsWith(inside) && !path.startsWith('..', inside.length) ? path.slice(inside.length) : path;
  };
}
