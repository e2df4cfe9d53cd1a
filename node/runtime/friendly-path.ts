import { isAbsolute, relative, resolve } from 'node:path';

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
