import { sep } from 'node:path';

/** A segment `.` or `..`, an empty one, or a trailing separator. */
const unresolvedSegment = /(?:^|\/)\.\.?(?:\/|$)|\/\/|\/$/;

/**
 * Whether `path` is a POSIX path that normalizing leaves as it is: not empty, no `.`, `..` or empty
 * segment, no trailing separator — joined to a normal directory, or resolved, it needs no
 * normalizing. False for every path on Windows, whose separators this does not read.
 */
export function isPlainPath(path: string): boolean {
  return sep === '/' && path !== '' && !unresolvedSegment.test(path);
}
