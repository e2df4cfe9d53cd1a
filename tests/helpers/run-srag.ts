import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runProcess, type ProcessRun } from './run-process.ts';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const cliPath = fileURLToPath(new URL('../../bin/srag.js', import.meta.url));

export type SragRun = ProcessRun;

/**
 * Run the real `srag` CLI in a child process. Asynchronous on purpose: the LLM stand-in serves
 * from this test process, so a blocking spawn would deadlock. A test about a command's behaviour
 * rather than the executable (its exit on a signal, a terminal, another user) runs it with
 * `runSragInProcess`, which saves the process start.
 */
export function runSrag(args: string[], { environment = {}, cwd = repositoryRoot, onSpawn, input, user }: {
  environment?: Record<string, string | undefined>;
  cwd?: string;
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
  /** Piped to the CLI's stdin (which is otherwise closed). */
  input?: string;
  /** Run as this user (the test runs as root and a test needs what an ordinary user may not do). */
  user?: { uid: number; gid: number };
} = {}): Promise<SragRun> {
  return runProcess(process.execPath, [cliPath, ...args], { cwd, env: sragEnvironment(environment), onSpawn, input, ...user });
}

/**
 * The variables srag runs with in a test: the machine's, without any endpoint or settings of its
 * own (no OPENAI_* or SRAG_*), plus `environment` (undefined removes a variable).
 */
export function sragEnvironment(environment: Record<string, string | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('OPENAI_') && !name.startsWith('SRAG_')) result[name] = value;
  }
  for (const [name, value] of Object.entries(environment)) {
    if (value === undefined) delete result[name];
    else result[name] = value;
  }
  return result;
}
