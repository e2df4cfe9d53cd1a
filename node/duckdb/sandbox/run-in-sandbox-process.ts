import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ColumnCoverage, SqlResult } from '../../../core/index.ts';
import { prepareWorkerBundle, readyWorkerBundle } from '../../runtime/workers/worker-bundle.ts';
import type { SandboxTable } from './open-sandbox.ts';
import { createPrivateDirectoryAt, privateDirectoryName, type PrivateDirectory } from './private-directory.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import type { SandboxProcessError, SandboxProcessReply, SandboxProcessRequest, SandboxWork } from './sandbox-process-protocol.ts';

/** The sandbox process's module (the package build rewrites this URL for dist/). */
const processUrl = new URL('./sandbox-process.ts', import.meta.url);

/** How long past its time limit a query is given to stop by itself (DuckDB sees an interrupt between chunks) before its process is ended. */
const graceMilliseconds = 2_000;
/** How often a working process's memory is read: a query that allocates 1 GB in less gets that much past its bound. */
const memoryCheckMilliseconds = 25;
/** Idle processes kept for the next queries; each holds a loaded DuckDB (~90 MB). */
const idleProcessesKept = 4;
/** The last characters a process wrote to stderr, kept to say why it stopped. */
const stderrTail = 2_000;

/** How a request ended: its result, an error of the query's own, or its process ended (and why). */
export type SandboxProcessOutcome =
  | { result: SqlResult | ColumnCoverage[] }
  | { error: SandboxProcessError }
  | { ended: 'time' | 'memory' | 'crash'; detail: string };

interface SandboxProcess {
  child: ChildProcess;
  stderr: string;
  /**
   * The only directory its DuckDB may read (see `openReusableSandbox`): made for one request's
   * files and removed before the process takes another, so a query finds no other request's there.
   */
  directory: string;
}

const idle: SandboxProcess[] = [];
const running = new Set<SandboxProcess>();
let entry: Promise<{ modulePath: string; execArgv: string[] }> | undefined;
let nextId = 1;

/**
 * Runs `work` in a sandbox process (see sandbox-process.ts) over the tables `exportTables` writes
 * into the directory it is given, the process's own, and bounds it from the outside, which nothing
 * inside DuckDB can: past `limits.timeoutMilliseconds` and a grace, or above
 * `limits.processMemoryMegabytes` of resident memory (read from /proc on Linux every 25 ms), the
 * process is killed and the outcome says so. The directory exists only while the request runs:
 * it is removed before the process is given another. A process that answered is kept for the
 * next request (a start costs loading DuckDB), and keeps its DuckDB for `owner`'s next one; one
 * that was ended is not.
 */
export async function runInSandboxProcess(
  limits: SandboxLimits, owner: string, exportTables: (directory: string) => Promise<SandboxTable[]>, work: SandboxWork,
): Promise<SandboxProcessOutcome> {
  const worker = idle.pop() ?? await start();
  let directory: PrivateDirectory;
  let tables: SandboxTable[];
  try {
    directory = createPrivateDirectoryAt(worker.directory);
  } catch (error) {
    // Its directory could not be made (taken, or the disk): this process is not used again.
    end(worker);
    throw error;
  }
  const id = nextId++;
  try {
    // A name of this request's own inside it: DuckDB must not take a file for one it read before.
    const files = join(directory.path, `request-${id}`);
    mkdirSync(files);
    tables = await exportTables(files);
  } catch (error) {
    directory.remove();
    park(worker);
    throw error;
  }
  worker.child.ref();
  worker.child.channel?.ref();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SandboxProcessOutcome, keep: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearInterval(watch);
      worker.child.off('message', onMessage);
      worker.child.off('exit', onExit);
      directory.remove();
      if (keep && worker.child.connected) park(worker);
      else end(worker);
      resolve(outcome);
    };
    const deadline = setTimeout(() => finish({ ended: 'time', detail: `past ${limits.timeoutMilliseconds + graceMilliseconds} ms` }, false), limits.timeoutMilliseconds + graceMilliseconds);
    const watch = setInterval(() => {
      const resident = residentMegabytes(worker.child.pid);
      if (resident !== undefined && resident > limits.processMemoryMegabytes) finish({ ended: 'memory', detail: `${Math.round(resident)} MB resident` }, false);
    }, memoryCheckMilliseconds);
    const onMessage = (reply: SandboxProcessReply) => {
      if (reply.id !== id) return;
      finish('result' in reply ? { result: reply.result } : { error: reply.error }, true);
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      const said = worker.stderr.trim().split('\n').at(-1);
      finish({ ended: 'crash', detail: `${signal ?? `exit code ${code}`}${said ? `: ${said}` : ''}` }, false);
    };
    worker.child.on('message', onMessage);
    worker.child.on('exit', onExit);
    worker.child.send({ id, tables, limits, work, directory: directory.path, owner } satisfies SandboxProcessRequest);
  });
}

/** Keeps an answering process for the next request, if fewer than `idleProcessesKept` are kept; else ends it. */
function park(worker: SandboxProcess): void {
  if (idle.length >= idleProcessesKept) {
    end(worker);
    return;
  }
  worker.child.unref();
  worker.child.channel?.unref();
  idle.push(worker);
}

async function start(): Promise<SandboxProcess> {
  const { modulePath, execArgv } = await processEntry();
  // An empty environment: the process that runs generated SQL holds no key, not even in its
  // variables; only Node's compile cache directory, when srag's CLI set one (see bin/srag.js).
  const env = process.env.NODE_COMPILE_CACHE ? { NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE } : {};
  const child = fork(modulePath, [], { execArgv, env, stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
  const worker: SandboxProcess = { child, stderr: '', directory: privateDirectoryName('sandbox') };
  running.add(worker);
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => { worker.stderr = `${worker.stderr}${chunk}`.slice(-stderrTail); });
  (child.stderr as Socket).unref();
  child.once('exit', () => {
    running.delete(worker);
    const index = idle.indexOf(worker);
    if (index >= 0) idle.splice(index, 1);
  });
  return worker;
}

function end(worker: SandboxProcess): void {
  running.delete(worker);
  worker.child.kill('SIGKILL');
}

/**
 * The module to fork: built JavaScript as it is (dist/), else the bundle of the TypeScript (built
 * once, as the worker threads' are), else the TypeScript through tsx.
 */
function processEntry(): Promise<{ modulePath: string; execArgv: string[] }> {
  entry ??= (async () => {
    if (!/\.[cm]?ts$/.test(processUrl.pathname)) return { modulePath: fileURLToPath(processUrl), execArgv: [] };
    await prepareWorkerBundle(processUrl);
    const bundle = readyWorkerBundle(processUrl);
    if (bundle) return { modulePath: fileURLToPath(bundle), execArgv: [] };
    return { modulePath: fileURLToPath(processUrl), execArgv: ['--import', createRequire(import.meta.url).resolve('tsx')] };
  })();
  return entry;
}

/** A process's resident memory in MB, from /proc (Linux); undefined elsewhere, where only the time bound holds. */
function residentMegabytes(pid: number | undefined): number | undefined {
  if (pid === undefined || process.platform !== 'linux') return undefined;
  try {
    const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

// A process still working when this one exits goes with it (an idle one ends when its channel closes).
process.on('exit', () => {
  for (const worker of running) worker.child.kill('SIGKILL');
});
