import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const cliPath = fileURLToPath(new URL('../../bin/srag.js', import.meta.url));

export interface SragRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Run the real `srag` CLI in a child process. Asynchronous on purpose: the LLM stand-in serves
 * from this test process, so a blocking spawn would deadlock.
 */
export function runSrag(args: string[], { environment = {}, cwd = repositoryRoot, onSpawn }: {
  environment?: Record<string, string | undefined>;
  cwd?: string;
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
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
  return runProcess(process.execPath, [cliPath, ...args], { cwd, env, onSpawn });
}

/** Any program in a child process, its output collected; asynchronous for the same reason as `runSrag`. */
export function runProcess(executable: string, args: string[], { cwd = repositoryRoot, env, onSpawn }: {
  cwd?: string;
  env?: Record<string, string>;
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
} = {}): Promise<SragRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(executable, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => { stdout += chunk; });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}
