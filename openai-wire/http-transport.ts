import type { CancellationSignal } from '../core/index.ts';

/** One HTTP request as the wire makes it; each runtime's transport sends it its own way. */
export interface HttpRequest {
  /** Absolute URL, query included. */
  url: string;
  method: 'GET' | 'POST';
  /** Header names as written here; `Authorization` carries the key, so a request is never logged. */
  headers: Record<string, string>;
  /** The body of a POST, JSON text. */
  body?: string;
  /** Ends the request early (Ctrl-C, a stopped batch). A transport that cannot stop a request in flight only refuses to start one. */
  signal?: CancellationSignal;
}

export interface HttpResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/**
 * The wire's one dependency on a runtime: send a request, answer with its response, whatever the
 * status. A request that gets no response at all rejects with a `TransportFailure`. Node's `http`
 * is one (duckdb-udf), the Sheets request loop over `UrlFetchApp.fetchAll` another, a test's
 * function a third: the vercel/ai pattern of a provider that is handed its `fetch`.
 */
export type HttpTransport = (request: HttpRequest) => Promise<HttpResponse>;
