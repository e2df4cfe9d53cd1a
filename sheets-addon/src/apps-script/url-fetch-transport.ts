import { SragError } from '../../../core/index.ts';
import { defaultMaxReplyBytes, TransportFailure, type HttpRequest, type HttpResponse, type TransportFailureKind } from '../../../openai-wire/index.ts';
import type { FetchAllTransport } from '../runtime/fetch-all-transport.ts';

/** Apps Script's short-term rate limit ("Service invoked too many times in a short time"): wait, then send again. */
const throttledPattern = /in a short time/i;
/** A daily quota spent ("… too many times for one day: urlfetch", bandwidth): nothing more gets through today. */
const quotaPattern = /too many times|quota|limit exceeded/i;
/** Nothing answers at the address (the stand-in and Apps Script say "Address unavailable", "DNS error"). */
const unreachablePattern = /address unavailable|dns error|unknown host|refused|unreachable/i;

/**
 * The request loop's transport over `UrlFetchApp.fetchAll`. HTTP errors come back as responses
 * (`muteHttpExceptions`); a request that gets no response makes `fetchAll` throw for the whole
 * batch, so the batch is then sent again one request at a time to find out which request failed and
 * keep the others' answers. The short-term rate limit fails the batch's requests as `throttled`
 * (the model client waits and retries them); a daily quota ends the execution's work and is thrown.
 *
 * A reply longer than `maxReplyBytes` fails as `too-large` before its text is parsed. UrlFetchApp
 * has read it whole by then — Apps Script reads at most 50 MB of a response (its quotas page, as
 * quoted at https://magesheet.com/blog/apps-script-urlfetchapp-quotas-retries; not verified
 * against Google's own page here) — so the bound spares the parsing and what follows, not the read:
 * a Content-Length over it is refused without taking the text, else the text's length in
 * characters is compared (a character is at least one byte).
 */
export function createUrlFetchTransport({ maxReplyBytes = defaultMaxReplyBytes }: { maxReplyBytes?: number } = {}): FetchAllTransport {
  const toResponse = (response: GoogleAppsScript.URL_Fetch.HTTPResponse): HttpResponse | TransportFailure => readResponse(response, maxReplyBytes);
  return {
    sendAll(requests: HttpRequest[]): Array<HttpResponse | TransportFailure> {
      try {
        return UrlFetchApp.fetchAll(requests.map(toParameters)).map(toResponse);
      } catch (error) {
        const failure = toFailure(error);
        if (requests.length === 1 || failure.kind === 'throttled') return requests.map(() => failure);
        return requests.map((request) => {
          try {
            return toResponse(UrlFetchApp.fetch(request.url, toOptions(request)));
          } catch (single) {
            return toFailure(single);
          }
        });
      }
    },
  };
}

/** The wire's request in UrlFetchApp's terms: a lower-case method, the content type and body as their own options. */
function toOptions(request: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequestOptions {
  const headers: Record<string, string> = {};
  let contentType: string | undefined;
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-type') contentType = value;
    else headers[name] = value;
  }
  const options: GoogleAppsScript.URL_Fetch.URLFetchRequestOptions = {
    method: request.method === 'POST' ? 'post' : 'get',
    headers,
    muteHttpExceptions: true,
    followRedirects: true,
  };
  if (contentType) options.contentType = contentType;
  if (request.body !== undefined) options.payload = request.body;
  return options;
}

function toParameters(request: HttpRequest): GoogleAppsScript.URL_Fetch.URLFetchRequest {
  return { url: request.url, ...toOptions(request) };
}

function readResponse(response: GoogleAppsScript.URL_Fetch.HTTPResponse, maxReplyBytes: number): HttpResponse | TransportFailure {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.getHeaders() as Record<string, unknown>)) headers[name.toLowerCase()] = String(value);
  const tooLarge = () => new TransportFailure('too-large', `the reply is longer than ${maxReplyBytes.toLocaleString('en-US')} bytes, the most read of one reply`);
  if (Number(headers['content-length']) > maxReplyBytes) return tooLarge();
  const body = response.getContentText();
  return body.length > maxReplyBytes ? tooLarge() : { status: response.getResponseCode(), headers, body };
}

/** What UrlFetchApp threw, as a transport failure; a spent daily quota is thrown instead. */
function toFailure(error: unknown): TransportFailure {
  const message = describe(error);
  if (throttledPattern.test(message)) return new TransportFailure('throttled', message);
  if (quotaPattern.test(message)) {
    throw new SragError({
      code: 'QUOTA_EXCEEDED',
      message: `Apps Script refused the request: ${message}`,
      hint: 'UrlFetchApp calls per day are limited (20,000 for consumer accounts); the rest can run tomorrow',
    });
  }
  const kind: TransportFailureKind = unreachablePattern.test(message) ? 'unreachable' : /timeout|timed out/i.test(message) ? 'timeout' : 'interrupted';
  return new TransportFailure(kind, message);
}

/** The error's first line without the URL's query string (request URLs carry no key, but stay terse). */
function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.replace(/\?[^\s"']*/g, '').slice(0, 300);
}
