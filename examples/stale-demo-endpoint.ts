import { connect } from 'node:net';

/** Hosts of this machine: a server there that refuses a connection is not running, whatever the network does. */
const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Why the demo cannot use the endpoint the environment names, when it is a server on this machine
 * that is not running — typically the LLM stand-in stopped with `kill $LLM_STAND_IN_PID`, which
 * leaves OPENAI_BASE_URL exported in the shell. Undefined when no base URL is set, the endpoint is
 * elsewhere (the demo does not probe the network), or something answers there.
 */
export async function describeStaleDemoEndpoint(environment: NodeJS.ProcessEnv): Promise<string | undefined> {
  const baseUrl = environment.OPENAI_BASE_URL;
  if (!baseUrl) return undefined;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return undefined;
  }
  if (!loopbackHosts.has(url.hostname)) return undefined;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (await answers(url.hostname.replace(/^\[|\]$/g, ''), port)) return undefined;
  const standIn = environment.LLM_STAND_IN_PID ? ` (the LLM stand-in this shell started, process ${environment.LLM_STAND_IN_PID}, has stopped: kill $LLM_STAND_IN_PID leaves the variables it exported)` : '';
  return `OPENAI_BASE_URL is ${url.origin}${url.pathname}, and nothing listens there${standIn} — run the demo offline after `
    + '`unset OPENAI_BASE_URL LLM_STAND_IN_PID`, or start the server it names';
}

/** False only when the connection is refused: anything else (slow, some other error) is left for srag to report. */
function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2000 });
    const settle = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(true));
    socket.once('error', (error: NodeJS.ErrnoException) => settle(error.code !== 'ECONNREFUSED'));
  });
}
