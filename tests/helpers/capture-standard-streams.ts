import { format } from 'node:util';
import { vi } from 'vitest';

export interface CapturedStreams<Result> {
  stdout: string;
  stderr: string;
  /** What `run` returned, or what it threw. */
  outcome: { value: Result } | { error: unknown };
}

/**
 * Runs `run` with what this process writes to stdout and stderr collected instead of written, as a
 * command's output would be read from its pipes: `process.stdout` and `process.stderr`, and the
 * console (which vitest otherwise takes for its report; a library's warning printed with
 * `console.warn` belongs to the command's stderr). One capture at a time: it replaces the process's
 * own writers. Not collected: what a worker thread writes to file descriptor 2 directly
 * (`writeSync(2, …)`, as srag's LLM bridge does for srag_extract's and srag_ask's lines).
 */
export async function captureStandardStreams<Result>(run: () => Promise<Result>): Promise<CapturedStreams<Result>> {
  let stdout = '';
  let stderr = '';
  const toStdout = (text: string) => { stdout += text; };
  const toStderr = (text: string) => { stderr += text; };
  const collect = (append: (text: string) => void) => (chunk: string | Uint8Array, ...rest: unknown[]) => {
    append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = rest.find((argument): argument is () => void => typeof argument === 'function');
    callback?.();
    return true;
  };
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(collect(toStdout) as typeof process.stdout.write),
    vi.spyOn(process.stderr, 'write').mockImplementation(collect(toStderr) as typeof process.stderr.write),
    // As Node's console writes them: log, info and debug to stdout, warn and error to stderr.
    ...(['log', 'info', 'debug'] as const).map((method) => vi.spyOn(console, method).mockImplementation((...values) => toStdout(`${format(...values)}\n`))),
    ...(['warn', 'error'] as const).map((method) => vi.spyOn(console, method).mockImplementation((...values) => toStderr(`${format(...values)}\n`))),
  ];
  try {
    const value = await run();
    return { stdout, stderr, outcome: { value } };
  } catch (error) {
    return { stdout, stderr, outcome: { error } };
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}
