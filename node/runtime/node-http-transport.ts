import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { defaultMaxReplyBytes, TransportFailure, type HttpRequest, type HttpTransport } from '../../openai-wire/index.ts';

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
 * authorization when no key is. A gzip, deflate (zlib-wrapped or bare) or brotli body is decoded;
 * redirects are followed as fetch follows them (Authorization dropped when one leaves the origin).
 * At most `maxReplyBytes` of a body are read — counted as they come off the socket, and again
 * decoded — and a longer one fails as `too-large` at once, its connection closed: a reply that
 * says it is longer (Content-Length) is not read at all.
 *
 * Not the global `fetch`: undici's fetch cost twice the CPU per request (WHATWG streams and
 * headers), which at 64 requests in flight made srag's own thread, not the model, the limit.
 */
export function createNodeHttpTransport({ timeoutMilliseconds, maxReplyBytes = defaultMaxReplyBytes }: { timeoutMilliseconds: number; maxReplyBytes?: number }): HttpTransport {
  const tooLarge = () => new TransportFailure('too-large', `the reply is longer than ${describeBytes(maxReplyBytes)}, the most read of one reply`);
  return (request) => new Promise((resolve, reject) => {
    if (request.signal?.aborted) return reject(new TransportFailure('cancelled', 'cancelled before it was sent'));
    let url: URL;
    try {
      url = sendableUrl(request.url);
    } catch (error) {
      return reject(failure(error));
    }
    let outgoing: http.ClientRequest | undefined;
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
      outgoing?.destroy();
    };
    const cancel = () => fail(new TransportFailure('cancelled', 'cancelled'));
    // One bound for the whole exchange, redirects included.
    const timer = setTimeout(() => fail(new TransportFailure('timeout', `no complete reply within ${timeoutMilliseconds / 1000} s`)), timeoutMilliseconds);
    request.signal?.addEventListener('abort', cancel, { once: true });

    const send = (target: URL, method: string, headers: Record<string, string>, body: Buffer | undefined, redirects: number) => {
      const sent = { ...headers, ...(body ? { 'Content-Length': String(body.length) } : {}) };
      outgoing = (target.protocol === 'https:' ? https : http).request(target, { method, headers: sent, agent: agents[target.protocol as 'http:' | 'https:'] }, (response) => {
        const next = redirectOf(target, method, response, redirects);
        if (next) {
          response.resume();
          try {
            const location = sendableUrl(next.location);
            // Credentials a Location carries are not sent: only those the user configured are.
            location.username = '';
            location.password = '';
            // As fetch does: credentials go to the origin they were meant for, not to where it points.
            const kept = location.origin === target.origin ? headers : withoutAuthorization(headers);
            return send(location, next.method, kept, next.method === method ? body : undefined, redirects + 1);
          } catch (error) {
            return fail(failure(error));
          }
        }
        const declared = Number(response.headers['content-length']);
        // Failed before the response is destroyed: destroying it reports an interrupted reply at once.
        if (Number.isFinite(declared) && declared > maxReplyBytes) {
          fail(tooLarge());
          return void response.destroy();
        }
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received <= maxReplyBytes) return void chunks.push(chunk);
          chunks.length = 0;
          fail(tooLarge());
          response.destroy();
        });
        response.on('error', (error) => fail(failure(error)));
        response.on('aborted', () => fail(new TransportFailure('interrupted', 'the connection closed before the reply was complete')));
        response.on('end', () => {
          if (!response.complete) return fail(new TransportFailure('interrupted', 'the connection closed before the reply was complete'));
          let text: string;
          try {
            text = decode(Buffer.concat(chunks), response.headers['content-encoding'], maxReplyBytes);
          } catch (error) {
            if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return fail(tooLarge());
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
      outgoing.end(body);
    };
    send(url, request.method, withUrlCredentials(url, { 'User-Agent': 'srag', Accept: '*/*', ...request.headers }), bodyBytes(request), 0);
  });
}

/** A request's body as UTF-8, its pieces (when it has them) encoded one by one into one buffer, never joined as text. */
function bodyBytes(request: HttpRequest): Buffer | undefined {
  const pieces = request.bodyPieces;
  if (pieces === undefined) return request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  let length = 0;
  for (const piece of pieces) length += Buffer.byteLength(piece, 'utf8');
  const bytes = Buffer.allocUnsafe(length);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at, 'utf8');
  return bytes;
}

/** Redirects followed before the last one's status is returned as the response, as fetch's limit. */
const mostRedirects = 20;

/**
 * Where a redirect points and with which method, as fetch follows it: 307 and 308 keep the method
 * and body; 303, and 301 or 302 after a POST, continue as GET without the body. Undefined for any
 * other response, one without a Location, or past `mostRedirects`.
 */
function redirectOf(from: URL, method: string, response: http.IncomingMessage, redirects: number): { location: string; method: string } | undefined {
  const status = response.statusCode ?? 0;
  const location = response.headers.location;
  if (![301, 302, 303, 307, 308].includes(status) || !location || redirects >= mostRedirects) return undefined;
  const asGet = status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST';
  return { location: new URL(location, from).href, method: asGet ? 'GET' : method };
}

/** `address` as a URL this transport can send to; throws (ERR_INVALID_URL, ERR_INVALID_PROTOCOL) otherwise. */
function sendableUrl(address: string): URL {
  const url = new URL(address);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw Object.assign(new Error(`cannot send to a ${url.protocol} URL, only http: and https:`), { code: 'ERR_INVALID_PROTOCOL' });
  return url;
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
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

/**
 * The body as text, decoded from the encoding a server chose (srag asks for none; a proxy may still
 * compress), at most `maxBytes` of it: a few kilobytes that expand to gigabytes fail with
 * ERR_BUFFER_TOO_LARGE, not by taking the memory.
 */
function decode(body: Buffer, encoding: string | undefined, maxBytes: number): string {
  const limit = { maxOutputLength: maxBytes };
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(body, limit).toString('utf8');
    case 'deflate':
      // zlib-wrapped by the standard, bare by some servers: read both, as browsers and fetch do.
      try {
        return zlib.inflateSync(body, limit).toString('utf8');
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw error;
        return zlib.inflateRawSync(body, limit).toString('utf8');
      }
    case 'br':
      return zlib.brotliDecompressSync(body, limit).toString('utf8');
    default:
      return body.toString('utf8');
  }
}

/** 8 MiB, 512 KiB, 300 bytes. */
function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes.toLocaleString('en-US')} bytes`;
}
