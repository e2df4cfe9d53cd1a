import { TransportFailure, type HttpTransport } from '../../openai-wire/index.ts';

/** Error codes of a connection that could not be made at all: nothing listens, no such host, no route. */
const unreachableCodes = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT', 'ERR_INVALID_URL']);
/** What fetch says of an address it will not even try: a port it blocks (e.g. 9), a URL it cannot parse. */
const refusedAddress = /bad port|invalid url|failed to parse url/i;

/**
 * The wire's transport under Node: the global `fetch` (undici), one request at a time, each bounded
 * by `timeoutMilliseconds` from start to the last byte of the body, so a hung server becomes a
 * retryable timeout rather than a frozen run. A refused connection or an unknown host is
 * `unreachable`; fetch refuses credentials in a URL (`http://user:password@host/v1`), so they are
 * sent as Basic authorization when no key is.
 */
export function createFetchTransport({ timeoutMilliseconds }: { timeoutMilliseconds: number }): HttpTransport {
  return async (request) => {
    if (request.signal?.aborted) throw new TransportFailure('cancelled', 'cancelled before it was sent');
    const { url, headers } = withoutUrlCredentials(request.url, request.headers);
    const controller = new AbortController();
    const cancel = () => controller.abort();
    request.signal?.addEventListener('abort', cancel, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMilliseconds);
    try {
      const response = await fetch(url, { method: request.method, headers, body: request.body, signal: controller.signal });
      const body = await response.text();
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name.toLowerCase()] = value;
      });
      return { status: response.status, headers: responseHeaders, body };
    } catch (error) {
      if (request.signal?.aborted) throw new TransportFailure('cancelled', 'cancelled', { cause: error });
      if (timedOut) throw new TransportFailure('timeout', `no complete reply within ${timeoutMilliseconds / 1000} s`, { cause: error });
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const code = cause?.code ?? (error as { code?: string }).code;
      const detail = [code, cause?.message ?? (error as Error).message].filter(Boolean).join(': ');
      const unreachable = (code !== undefined && unreachableCodes.has(code)) || refusedAddress.test(detail);
      throw new TransportFailure(unreachable ? 'unreachable' : 'interrupted', detail, { cause: error });
    } finally {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', cancel);
    }
  };
}

function withoutUrlCredentials(address: string, headers: Record<string, string>): { url: string; headers: Record<string, string> } {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return { url: address, headers };
  }
  if (!url.username && !url.password) return { url: address, headers };
  const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  url.username = '';
  url.password = '';
  const withAuthorization = headers.Authorization ? headers : { ...headers, Authorization: `Basic ${Buffer.from(credentials).toString('base64')}` };
  return { url: url.toString(), headers: withAuthorization };
}
