import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The demo's records come from whichever model extracted them: a database the offline stand-in
 * filled would show the stand-in's records as a real model's, since its documents are unchanged
 * and nothing is extracted again. So a run against another endpoint or model than the one that
 * made the database (kept in `made-by.txt` beside it) removes `files` first. Returns what made
 * them and what runs now when it did, undefined otherwise.
 */
export function startDemoOverForAnotherModel({ directory, files, madeBy }: { directory: string; files: string[]; madeBy: string }): { previous: string; now: string } | undefined {
  const record = join(directory, 'made-by.txt');
  const previous = existsSync(record) ? readFileSync(record, 'utf8').trim() : undefined;
  writeFileSync(record, `${madeBy}\n`);
  if (previous === madeBy || !files.some((file) => existsSync(file))) return undefined;
  for (const file of files) rmSync(file, { force: true });
  return { previous: previous ?? 'an earlier demo', now: madeBy };
}
