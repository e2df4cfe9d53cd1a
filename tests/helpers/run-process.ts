import { spawn, type SpawnOptions } from 'node:child_process';

export interface ProcessRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run a command to its end and collect what it printed. Asynchronous on purpose: a stand-in server
 * in the calling process must keep answering while the command runs.
 */
export function runProcess(command: string, args: string[], options: Pick<SpawnOptions, 'cwd' | 'env'> = {}): Promise<ProcessRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => { stdout += chunk; });
    child.stderr!.on('data', (chunk) => { stderr += chunk; });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
