import { spawn, type SpawnOptions } from 'node:child_process';

export interface ProcessRun {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Run a command to its end and collect what it printed. Asynchronous on purpose: a stand-in server
 * in the calling process must keep answering while the command runs.
 */
export function runProcess(command: string, args: string[], { input, onSpawn, ...options }: Pick<SpawnOptions, 'cwd' | 'env' | 'uid' | 'gid'> & {
  /** Piped to the command's stdin (which is otherwise closed). */
  input?: string;
  onSpawn?: (child: ReturnType<typeof spawn>) => void;
} = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    if (input !== undefined) child.stdin!.end(input);
    onSpawn?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => { stdout += chunk; });
    child.stderr!.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
}
