import type { HttpRequest, HttpResponse, TransportFailure } from '../../../openai-wire/index.ts';

/**
 * Sends a batch of requests at once and answers each with its response or a `TransportFailure`,
 * in order. Under Apps Script this is `UrlFetchApp.fetchAll`; an error that ends the execution's
 * work (the daily quota) is thrown rather than answered.
 */
export interface FetchAllTransport {
  sendAll(requests: HttpRequest[]): Array<HttpResponse | TransportFailure>;
}
