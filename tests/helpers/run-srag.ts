import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runProcess, type ProcessRun } from './run-process.ts';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const cliPath = fileURLToPath(new URL('../../bin/srag.js', import.meta.url));

export type SragRun = ProcessRun;

/**
 * Run the real `srag` CLI in a child process. Asynchronous on purpose: the LLM stand-in serves
 * from this test process, so a blocking spawn would deadlock.
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
  // The child sees only the endpoint and settings the test gives it, none from the machine.
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('OPENAI_') && !name.startsWith('SRAG_')) env[name] = value;
  }
  for (const [name, value] of Object.entries(environment)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return runProcess(process.execPath, [cliPath, ...args], { cwd, env, onSpawn, input, ...user });
}
