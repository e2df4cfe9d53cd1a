import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A directory only this process uses, removed by `remove()` or, at the latest, when the process exits. */
export interface PrivateDirectory {
  readonly path: string;
  remove(): void;
}

const open = new Set<string>();
let exitHookInstalled = false;

/**
 * A fresh directory under the system's temporary directory (`mkdtemp`: mode 0700, a name no other
 * process can predict), for files that carry a table into the sandbox. Never the working
 * directory: the user's folder is not scratch space, and a crash must not leave table copies
 * there. Removal is synchronous and idempotent; an exit hook removes what a crash left open.
 */
export function createPrivateDirectory(purpose: string): PrivateDirectory {
  const path = mkdtempSync(join(tmpdir(), `srag-${purpose}-`));
  open.add(path);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      for (const directory of open) rmSync(directory, { recursive: true, force: true });
    });
  }
  return {
    path,
    remove() {
      if (!open.delete(path)) return;
      rmSync(path, { recursive: true, force: true });
    },
  };
}
