import { renderError } from '../../node/cli/render-error.ts';
import { captureStandardStreams } from './capture-standard-streams.ts';

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
 * To keep a command line as written, see `runSragInProcess`.
 */
export async function runCommandInProcess(command: (abortSignal: AbortSignal) => Promise<number>, { database }: { database?: string } = {}): Promise<InProcessRun> {
  const { stdout, stderr, outcome } = await captureStandardStreams(() => command(new AbortController().signal));
  if ('value' in outcome) return { status: outcome.value, stdout, stderr };
  const rendered = renderError(outcome.error, { database });
  return { status: rendered.exitStatus, stdout, stderr: `${stderr}${rendered.line}\n` };
}
