import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A directory only this process uses, removed by `remove()` or, at the latest, when the process exits. */
export interface PrivateDirectory {
  readonly path: string;
  remove(): void;
}

const open = new Set<string>();
let hooksInstalled = false;

/** Signals that end a process without its exit hooks, and that a service manager or a closed terminal sends. */
const endingSignals = ['SIGTERM', 'SIGHUP'] as const;

/**
 * A fresh directory under the system's temporary directory (`mkdtemp`: mode 0700, a name no other
 * process can predict), for files that carry a table into the sandbox. Never the working
 * directory: the user's folder is not scratch space, and a crash must not leave table copies
 * there. Removal is synchronous and idempotent; an exit hook removes what a crash left open, and
 * so does a hook on SIGTERM and SIGHUP, which end a process without running its exit hooks (a
 * `kill` during `srag ask` left `srag-sandbox-*` with a copy of the table behind).
 */
export function createPrivateDirectory(purpose: string): PrivateDirectory {
  return keepPrivateDirectory(mkdtempSync(join(tmpdir(), `srag-${purpose}-`)));
}

/**
 * The directory `path`, made now with mode 0700 (it must not exist: a name chosen at random, see
 * `privateDirectoryName`), removed as `createPrivateDirectory`'s are.
 */
export function createPrivateDirectoryAt(path: string): PrivateDirectory {
  mkdirSync(path, { mode: 0o700 });
  return keepPrivateDirectory(path);
}

/** A path for `createPrivateDirectoryAt` under the system's temporary directory, as unpredictable as `mkdtemp`'s. */
export function privateDirectoryName(purpose: string): string {
  return join(tmpdir(), `srag-${purpose}-${randomBytes(9).toString('hex')}`);
}

function keepPrivateDirectory(path: string): PrivateDirectory {
  open.add(path);
  installHooks();
  return {
    path,
    remove() {
      if (!open.delete(path)) return;
      rmSync(path, { recursive: true, force: true });
    },
  };
}

function removeOpen(): void {
  for (const directory of open) rmSync(directory, { recursive: true, force: true });
  open.clear();
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', removeOpen);
  for (const signal of endingSignals) {
    const onSignal = () => {
      removeOpen();
      // Alone on the signal, this hook must not keep the process alive: it ends by the signal, as it would have without it.
      if (process.listenerCount(signal) === 1) {
        process.removeListener(signal, onSignal);
        process.kill(process.pid, signal);
      }
    };
    process.on(signal, onSignal);
  }
}
