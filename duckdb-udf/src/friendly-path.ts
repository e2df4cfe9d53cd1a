import { isAbsolute, relative, resolve } from 'node:path';

/** How srag shows a path: relative to the working directory when the file is inside it, else as it is. */
export function friendlyPath(path: string): string {
  const fromWorkingDirectory = relative(process.cwd(), resolve(path));
  if (fromWorkingDirectory && !fromWorkingDirectory.startsWith('..') && !isAbsolute(fromWorkingDirectory)) return fromWorkingDirectory;
  return path;
}
