import { execFileSync } from 'node:child_process';

/**
 * What to do when DuckDB refuses a database because another process holds its lock, from the
 * process DuckDB names ("Conflicting lock is held in /usr/bin/node (PID 1234)"): a running
 * `srag serve` answers the same questions over HTTP, so its address and routes are the way on;
 * another srag command is named so that one knows what to wait for. Undefined when the holder
 * cannot be told (no PID in the message, no `ps`, as on Windows): the caller's words stand.
 */
export function describeLockHolder(duckDbMessage: string): string | undefined {
  const pid = /\(PID (\d+)\)/.exec(duckDbMessage)?.[1];
  if (pid === undefined || process.platform === 'win32') return undefined;
  let commandLine: string;
  try {
    commandLine = execFileSync('ps', ['-o', 'args=', '-p', pid], { encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
  const command = /\bsrag(?:\.js)?\s+([a-z]+)\b(.*)$/.exec(commandLine);
  if (!command) return undefined;
  if (command[1] !== 'serve') return `srag ${command[1]} (process ${pid}) has it open; wait for it to end, or use another --db`;
  const options = command[2]!;
  const port = /--port[= ](\d+)/.exec(options)?.[1] ?? '8080';
  const host = /--host[= ](\S+)/.exec(options)?.[1] ?? '127.0.0.1';
  const address = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  // The routes after the address, not in URLs: a query in a URL of an error message is redacted as a possible secret.
  return `srag serve (process ${pid}) has it open, and its HTTP API at ${address}/ answers the same (GET /stats, GET /why?document=…&attribute=…, `
    + `POST /query {"question": "…"}, the page in a browser); or stop the server (Ctrl-C where it runs, or kill ${pid}) and run this again`;
}
