// The sandbox process: a child of srag's (see `runInSandboxProcess`) that runs generated SQL, one
// request at a time, in an in-memory DuckDB that reads only the process's own directory and is
// kept for the next request of the same asker (`openReusableSandbox`; a fresh one, `openSandbox`,
// for files large enough for more threads). It is a process of its own
// so that a query can be ended whatever it does: DuckDB's memory limit does not count every
// allocation (a list of a hundred million numbers is built outside it) and an interrupt is seen
// only between chunks, so the parent ends this process when it outgrows its memory or its time.
// It holds no secret (its environment is empty) and ends when its parent does.
import { SragError } from '../../../core/index.ts';
import { countColumnCoverage } from './count-column-coverage.ts';
import { needsMoreThreads, openReusableSandbox, openSandbox, type ReusableSandbox, type Sandbox } from './open-sandbox.ts';
import { readBoundedResult } from './read-bounded-result.ts';
import type { SandboxProcessError, SandboxProcessReply, SandboxProcessRequest } from './sandbox-process-protocol.ts';

process.on('disconnect', () => process.exit(0));
process.on('message', (request: SandboxProcessRequest) => {
  void answer(request).then((reply) => process.send!(reply));
});

/** The DuckDB kept from the last request, and what it was made for (directory, asker, memory bound). */
let kept: { key: string; sandbox: ReusableSandbox } | undefined;
/** Closes the kept DuckDB once no request came for `limits.keptSandboxIdleMilliseconds`. */
let idle: NodeJS.Timeout | undefined;

async function answer(request: SandboxProcessRequest): Promise<SandboxProcessReply> {
  clearTimeout(idle);
  try {
    return await answerWithSandbox(request);
  } finally {
    if (kept) idle = setTimeout(discardKept, request.limits.keptSandboxIdleMilliseconds).unref();
  }
}

async function answerWithSandbox({ id, tables, limits, work, directory, owner }: SandboxProcessRequest): Promise<SandboxProcessReply> {
  try {
    const key = JSON.stringify([directory, owner, limits.memoryMegabytes]);
    if (kept && kept.key !== key) discardKept();
    kept ??= { key, sandbox: await openReusableSandbox(directory, limits) };
    const reusable = kept.sandbox;
    if (await needsMoreThreads(reusable.connection, tables, limits)) return await run(id, await openSandbox(tables, limits), limits, work, (sandbox) => sandbox.close());
    await reusable.attach(tables).catch((error: unknown) => {
      // Some of its views may have been made: it is not used again.
      discardKept();
      throw error;
    });
    return await run(id, reusable, limits, work, async () => {
      // Its views go with the request; a DuckDB that cannot drop them is not used again.
      await reusable.detach(tables).catch(discardKept);
    });
  } catch (error) {
    return { id, error: crossing(error) };
  }
}

async function run<S extends Sandbox>(id: number, sandbox: S, limits: SandboxProcessRequest['limits'], work: SandboxProcessRequest['work'], release: (sandbox: S) => unknown): Promise<SandboxProcessReply> {
  // The parent ends the process a little later if DuckDB does not stop here.
  const timer = setTimeout(() => sandbox.connection.interrupt(), limits.timeoutMilliseconds);
  try {
    const result = work.kind === 'query'
      ? await readBoundedResult(sandbox.connection, work.sql, limits)
      : await countColumnCoverage(sandbox.connection, work.table, work.selection, work.columns);
    return { id, result };
  } catch (error) {
    return { id, error: crossing(error) };
  } finally {
    clearTimeout(timer);
    await release(sandbox);
  }
}

function discardKept(): void {
  const sandbox = kept?.sandbox;
  kept = undefined;
  sandbox?.close();
}

function crossing(error: unknown): SandboxProcessError {
  if (!SragError.isInstance(error)) return { message: error instanceof Error ? error.message : String(error) };
  return {
    message: error.message, code: error.code,
    ...(error.hint ? { hint: error.hint } : {}),
    ...(error.code === 'SQL_REJECTED' ? { reason: error.message.replace(/^SQL rejected: /, '') } : {}),
  };
}
