// The sandbox process: a child of srag's (see `runInSandboxProcess`) that runs generated SQL, one
// request at a time, each in a fresh in-memory DuckDB (`openSandbox`). It is a process of its own
// so that a query can be ended whatever it does: DuckDB's memory limit does not count every
// allocation (a list of a hundred million numbers is built outside it) and an interrupt is seen
// only between chunks, so the parent ends this process when it outgrows its memory or its time.
// It holds no secret (its environment is empty) and ends when its parent does.
import { SragError } from '../../../core/index.ts';
import { countColumnCoverage } from './count-column-coverage.ts';
import { openSandbox } from './open-sandbox.ts';
import { readBoundedResult } from './read-bounded-result.ts';
import type { SandboxProcessError, SandboxProcessReply, SandboxProcessRequest } from './sandbox-process-protocol.ts';

process.on('disconnect', () => process.exit(0));
process.on('message', (request: SandboxProcessRequest) => {
  void answer(request).then((reply) => process.send!(reply));
});

async function answer({ id, tables, limits, work }: SandboxProcessRequest): Promise<SandboxProcessReply> {
  try {
    const sandbox = await openSandbox(tables, limits);
    // The parent ends the process a little later if DuckDB does not stop here.
    const timer = setTimeout(() => sandbox.connection.interrupt(), limits.timeoutMilliseconds);
    try {
      const result = work.kind === 'query'
        ? await readBoundedResult(sandbox.connection, work.sql, limits)
        : await countColumnCoverage(sandbox.connection, work.table, work.selection, work.columns);
      return { id, result };
    } finally {
      clearTimeout(timer);
      sandbox.close();
    }
  } catch (error) {
    return { id, error: crossing(error) };
  }
}

function crossing(error: unknown): SandboxProcessError {
  if (!SragError.isInstance(error)) return { message: error instanceof Error ? error.message : String(error) };
  return {
    message: error.message, code: error.code,
    ...(error.hint ? { hint: error.hint } : {}),
    ...(error.code === 'SQL_REJECTED' ? { reason: error.message.replace(/^SQL rejected: /, '') } : {}),
  };
}
