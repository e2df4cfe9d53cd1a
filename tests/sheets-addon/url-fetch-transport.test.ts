import { afterEach, describe, expect, it } from 'vitest';
import { TransportFailure, type HttpRequest } from '../../openai-wire/index.ts';
import { createUrlFetchTransport } from '../../sheets-addon/src/apps-script/url-fetch-transport.ts';

/** A response as UrlFetchApp gives it: the methods the transport reads, and whether its text was taken. */
function fetchedResponse(body: string, headers: Record<string, string> = {}) {
  const read = { text: false };
  return {
    read,
    response: {
      getResponseCode: () => 200,
      getHeaders: () => headers,
      getContentText: () => {
        read.text = true;
        return body;
      },
    },
  };
}

const request: HttpRequest = { url: 'https://models.example/v1/chat/completions', method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' };
const host = globalThis as unknown as { UrlFetchApp?: unknown };

afterEach(() => {
  delete host.UrlFetchApp;
});

describe('the UrlFetchApp transport', () => {
  it('fails a reply longer than its bound as too large before anything parses it, and passes a shorter one', () => {
    const long = fetchedResponse('x'.repeat(2_000));
    const short = fetchedResponse('{"ok":true}', { 'Content-Type': 'application/json' });
    host.UrlFetchApp = { fetchAll: () => [long.response, short.response] };
    const [first, second] = createUrlFetchTransport({ maxReplyBytes: 1_000 }).sendAll([request, request]);
    expect(TransportFailure.isInstance(first) && { kind: first.kind, message: first.message }).toEqual({ kind: 'too-large', message: 'the reply is longer than 1,000 bytes, the most read of one reply' });
    expect(second).toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
  });

  it('refuses a reply whose Content-Length is over the bound without taking its text', () => {
    const declared = fetchedResponse('x'.repeat(10), { 'Content-Length': '50000000' });
    host.UrlFetchApp = { fetchAll: () => [declared.response] };
    const [result] = createUrlFetchTransport().sendAll([request]);
    expect(TransportFailure.isInstance(result) && result.kind).toBe('too-large');
    expect(declared.read.text).toBe(false);
  });
});
