import type { ErrorFix } from '../../core/errors/error-fix.ts';
import type { ErrorBody } from './api-types.ts';

const tokenKey = 'srag-serve-token';

/** A refusal of the server, with what it carries: its code, its hint, and its fix as data. */
export class ApiError extends Error {
  constructor(message: string, readonly code: string | undefined, readonly hint: string | undefined, readonly fix: ErrorFix | undefined) {
    super(message);
  }
}

/** The token a link may carry (`#token=…`) is kept for the tab and taken out of the address. */
export function keepTokenFromAddress(): void {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!fromHash) return;
  sessionStorage.setItem(tokenKey, fromHash);
  history.replaceState(null, '', location.pathname);
}

/** Calls the server; asks for its token once when it wants one. */
export async function request(path: string, init: RequestInit & { retried?: boolean } = {}): Promise<Response> {
  const token = sessionStorage.getItem(tokenKey);
  const headers = { ...(init.headers as Record<string, string> | undefined ?? {}), ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const response = await fetch(path, { ...init, headers });
  if (response.status === 401 && !init.retried) {
    const entered = prompt('This server needs its token (SRAG_SERVE_TOKEN):');
    if (entered) {
      sessionStorage.setItem(tokenKey, entered);
      return request(path, { ...init, retried: true });
    }
  }
  return response;
}

/** A JSON answer, or the server's refusal as an `ApiError`. */
export async function getJson<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await request(path, init);
  const body = await response.json().catch(() => undefined) as unknown;
  if (!response.ok) throw refusal(response, body);
  return body as T;
}

/** POSTs `body` as JSON. */
export function postJson<T>(path: string, body: unknown): Promise<T> {
  return getJson<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/**
 * Saves what `path` answers as a file named `name` (fetched with the token, so a server that
 * needs one serves downloads too).
 */
export async function download(path: string, name: string): Promise<void> {
  const response = await request(path);
  if (!response.ok) throw refusal(response, await response.json().catch(() => undefined));
  const url = URL.createObjectURL(await response.blob());
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function refusal(response: Response, body: unknown): ApiError {
  const error = (body as ErrorBody | undefined)?.error;
  return new ApiError(error?.message ?? `${response.status} ${response.statusText}`, error?.code, error?.hint, error?.fix);
}
