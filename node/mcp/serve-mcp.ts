import { openSrag, redactSecrets, secretSettings } from '../index.ts';
import { createMcpServer } from './create-mcp-server.ts';
import { sragWhileCalled } from './srag-while-called.ts';
import { stdioUntilAnswered } from './stdio-until-answered.ts';

export interface ServeMcpOptions {
  /** The DuckDB file (`--db`); it must exist. */
  database: string;
  /** srag's version, told to the client when it connects. */
  version: string;
}

/**
 * `srag mcp`: the MCP server over stdio, until the client closes the server's stdin (how an MCP
 * client stops a stdio server) and every request read has its answer, or until `abortSignal` fires
 * (Ctrl-C), which also cancels the calls under way (their model requests aborted; a back-fill keeps
 * what it finished). Nothing but protocol messages goes to stdout; notices go to stderr, which
 * clients keep as the server's log. A `--db` that is missing or not a srag database stops it before
 * the client lists a tool. Returns the exit status.
 */
export async function serveMcp({ database, version }: ServeMcpOptions, abortSignal: AbortSignal): Promise<number> {
  const open = () => openSrag(database, { abortSignal, mustExist: true });
  (await open()).close();
  // A library that prints with console.log would corrupt the protocol stream: it goes to stderr instead.
  console.log = console.info = console.debug = console.error;
  const secrets = secretSettings();
  const server = createMcpServer({ useSrag: sragWhileCalled(open), redact: (text) => redactSecrets(text, secrets) }, { version });
  const closed = new Promise<void>((resolve) => { server.server.onclose = resolve; });
  abortSignal.addEventListener('abort', () => void server.close(), { once: true });
  await server.connect(stdioUntilAnswered());
  await closed;
  return abortSignal.aborted ? 130 : 0;
}
