import { vi } from 'vitest';
import { renderError } from '../../node/cli/render-error.ts';

export interface InProcessRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a CLI command's function (`ingestCommand`, `askCommand`, …) in the test's process, with what
 * it writes to stdout and stderr collected and an error rendered as `srag` renders it (the line on
 * stderr, the exit status of its code). Saves a process start per command where the test is about
 * the command's behaviour rather than the executable; the settings come from `process.env`
 * (`vi.stubEnv`). One command at a time: the capture replaces the process's own writers.
 * `database` is the `--db` the command line would name, for the commands an error's fix prints.
 */
export async function runCommandInProcess(command: (abortSignal: AbortSignal) => Promise<number>, { database }: { database?: string } = {}): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const collect = (append: (text: string) => void) => (chunk: string | Uint8Array, ...rest: unknown[]) => {
    append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const callback = rest.find((argument): argument is () => void => typeof argument === 'function');
    callback?.();
    return true;
  };
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(collect((text) => { stdout += text; }) as typeof process.stdout.write);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(collect((text) => { stderr += text; }) as typeof process.stderr.write);
  try {
    const status = await command(new AbortController().signal);
    return { status, stdout, stderr };
  } catch (error) {
    const rendered = renderError(error, { database });
    return { status: rendered.exitStatus, stdout, stderr: `${stderr}${rendered.line}\n` };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}
