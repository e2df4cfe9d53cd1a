import { statSync } from 'node:fs';

/** False only when nothing is at `path` any more (or a directory on its way is gone): other errors (no permission) do not count as gone. */
export function fileIsThere(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code !== 'ENOENT' && code !== 'ENOTDIR';
  }
}
