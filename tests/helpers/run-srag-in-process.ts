import { PassThrough } from 'node:stream';
import { vi } from 'vitest';
import { main } from '../../node/cli/main.ts';
import { captureStandardStreams } from './capture-standard-streams.ts';
import { repositoryRoot, sragEnvironment, type SragRun } from './run-srag.ts';

let previous: Promise<unknown> = Promise.resolve();

/**
 * Runs an `srag` command line in the test's process, through the CLI's own argument parsing
 * (`main`), as `runSrag` runs it in a process of its own: the same arguments, working directory,
 * variables (the machine's without OPENAI_* or SRAG_*, plus `environment`), stdin (closed, or
 * `input`), and what it printed and the exit status it returned. Saves the process start (a few
 * tenths of a second of CPU, seconds on a loaded machine) where a test is about the command's
 * behaviour. A test about the executable keeps `runSrag`: a signal, a terminal, another user, an
 * exit that must not wait on a leftover handle, and the lines srag's SQL functions print from
 * their worker thread straight to file descriptor 2 (srag_extract's `moved:` and warnings), which
 * no capture in this process sees.
 *
 * The working directory, variables and standard streams are the process's own, so runs take
 * turns (one at a time, in the order they were asked for), and put back after each run; the test
 * file must run in a process (vitest's forks pool, the default), as a worker thread cannot change
 * directory.
 */
export function runSragInProcess(args: string[], options: {
  environment?: Record<string, string | undefined>;
  cwd?: string;
  /** Given to the command as its stdin (which is otherwise closed). */
  input?: string;
} = {}): Promise<SragRun> {
  const run = previous.then(() => runNow(args, options));
  previous = run.catch(() => {});
  return run;
}

async function runNow(args: string[], { environment = {}, cwd = repositoryRoot, input }: { environment?: Record<string, string | undefined>; cwd?: string; input?: string }): Promise<SragRun> {
  const savedEnvironment = { ...process.env };
  const savedDirectory = process.cwd();
  replaceEnvironment(sragEnvironment(environment));
  const stdin = new PassThrough();
  stdin.end(input ?? '');
  const stdinGetter = vi.spyOn(process, 'stdin', 'get').mockReturnValue(stdin as unknown as typeof process.stdin);
  // main listens for Ctrl-C and a closed stdout, as a process's entry point does; those listeners go with the run.
  const interruptListeners = process.listeners('SIGINT');
  const stdoutErrorListeners = process.stdout.listeners('error');
  try {
    process.chdir(cwd);
    const { stdout, stderr, outcome } = await captureStandardStreams(() => main([process.execPath, 'srag', ...args]));
    // An error main lets through would end the process as an uncaught exception does: status 1, the stack on stderr.
    if ('error' in outcome) return { status: 1, signal: null, stdout, stderr: `${stderr}${(outcome.error as Error)?.stack ?? String(outcome.error)}\n` };
    return { status: outcome.value, signal: null, stdout, stderr };
  } finally {
    for (const listener of process.listeners('SIGINT')) if (!interruptListeners.includes(listener)) process.off('SIGINT', listener);
    for (const listener of process.stdout.listeners('error')) if (!stdoutErrorListeners.includes(listener)) process.stdout.off('error', listener as (error: Error) => void);
    stdinGetter.mockRestore();
    process.chdir(savedDirectory);
    replaceEnvironment(savedEnvironment);
  }
}

function replaceEnvironment(environment: Record<string, string | undefined>): void {
  for (const name of Object.keys(process.env)) if (!(name in environment)) delete process.env[name];
  for (const [name, value] of Object.entries(environment)) if (value !== undefined) process.env[name] = value;
}
