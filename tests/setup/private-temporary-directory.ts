import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The suite's temporary files go under one directory of its own, removed when the run ends:
 * tests make databases, corpora, bundles and packed tarballs under `os.tmpdir()`, and a run left
 * about a hundred directories behind (a developer's machine had 3,000 of them, 26 GB). Test files,
 * their workers and the processes they start all read TMPDIR, set here before any of them starts.
 */
export default function setup(): () => void {
  const directory = mkdtempSync(join(tmpdir(), 'srag-test-run-'));
  // Shared as /tmp is (sticky, writable by all): a test runs srag as another user on a read-only file.
  chmodSync(directory, 0o1777);
  process.env.TMPDIR = directory;
  return () => rmSync(directory, { recursive: true, force: true });
}
