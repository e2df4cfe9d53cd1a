import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { TransportFailure, type HttpTransport } from '../../openai-wire/index.ts';

/** Error codes of a connection that could not be made at all: nothing listens, no such host, no route, no URL. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ERR_INVALID_URL', 'ERR_INVALID_PROTOCOL']);

/**
 * Connections stay open between requests (an extraction makes hundreds to one endpoint); an idle
 * one does not keep the process alive.
 */
const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

/**
 * The wire's transport under Node: `node:http` and `node:https` over keep-alive connections, each
 * request bounded by `timeoutMilliseconds` from start to the last byte of the body, so a hung
 * server becomes a retryable timeout rather than a frozen run. A refused connection, an unknown
 * host or a URL that cannot be sent to is `unreachable`; a connection that breaks midway is
 * `interrupted`. Credentials in a URL (`http://user:password@host/v1`) are sent as Basic
 * authorization when no key is. A gzip, deflate or brotli body is decoded.
 *
 * Not the global `fetch`: undici's fetch cost twice the CPU per request (WHATWG streams and
 * headers), which at 64 requests in flight made srag's own thread, not the model, the limit.
 */
export function createNodeHttpTransport({ timeoutMilliseconds }: { timeoutMilliseconds: number }): HttpTransport {
  return (request) => new Promise((resolve, reject) => {
    if (request.signal?.aborted) return reject(new TransportFailure('cancelled', 'cancelled before it was sent'));
    let url: URL;
    try {
      url = new URL(request.url);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw Object.assign(new Error(`cannot send to a ${url.protocol} URL, only http: and https:`), { code: 'ERR_INVALID_PROTOCOL' });
    } catch (error) {
      return reject(failure(error));
    }
    const headers = withUrlCredentials(url, request.headers);
    const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
    if (body) headers['Content-Length'] = String(body.length);
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', cancel);
      outcome();
    };
    const fail = (error: TransportFailure) => {
      settle(() => reject(error));
      outgoing.destroy();
    };
    const cancel = () => fail(new TransportFailure('cancelled', 'cancelled'));
    const timer = setTimeout(() => fail(new TransportFailure('timeout', `no complete reply within ${timeoutMilliseconds / 1000} s`)), timeoutMilliseconds);
    const outgoing = (url.protocol === 'https:' ? https : http).request(url, { method: request.method, headers, agent: agents[url.protocol as 'http:' | 'https:'] }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => fail(failure(error)));
      response.on('aborted', () => fail(new TransportFailure('interrupted', 'the connection closed before the reply was complete')));
      response.on('end', () => {
        if (!response.complete) return fail(new TransportFailure('interrupted', 'the connection closed before the reply was complete'));
        let text: string;
        try {
          text = decode(Buffer.concat(chunks), response.headers['content-encoding']);
        } catch (error) {
          return fail(new TransportFailure('interrupted', `the reply's body could not be decoded: ${(error as Error).message}`, { cause: error }));
        }
        const responseHeaders: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        settle(() => resolve({ status: response.statusCode ?? 0, headers: responseHeaders, body: text }));
      });
    });
    outgoing.on('error', (error) => fail(failure(error)));
    request.signal?.addEventListener('abort', cancel, { once: true });
    outgoing.end(body);
  });
}

/** A request's error as the wire knows it: `unreachable` when no connection could be made, else `interrupted`. */
function failure(error: unknown): TransportFailure {
  const code = (error as { code?: string }).code;
  const detail = [code, (error as Error).message].filter(Boolean).join(': ');
  return new TransportFailure(code !== undefined && unreachableCodes.has(code) ? 'unreachable' : 'interrupted', detail, { cause: error });
}

/** `headers`, with the URL's credentials as Basic authorization when no Authorization is given; the URL keeps none. */
function withUrlCredentials(url: URL, headers: Record<string, string>): Record<string, string> {
  const sent = { ...headers };
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    url.username = '';
    url.password = '';
    if (!Object.keys(sent).some((name) => name.toLowerCase() === 'authorization')) sent.Authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  return sent;
}

/** The body as text, decoded from the encoding a server chose (srag asks for none; a proxy may still compress). */
function decode(body: Buffer, encoding: string | undefined): string {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(body).toString('utf8');
    case 'deflate':
      return zlib.inflateSync(body).toString('utf8');
    case 'br':
      return zlib.brotliDecompressSync(body).toString('utf8');
    default:
      return body.toString('utf8');
  }
}
