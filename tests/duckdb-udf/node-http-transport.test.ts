import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanguageModelError, ModelClient } from '../../core/index.ts';
import { TransportFailure, type HttpRequest } from '../../openai-wire/index.ts';
import { createNodeHttpTransport as createTransport } from '../../node/runtime/node-http-transport.ts';
import { OpenAiLanguageModel } from '../../node/runtime/openai-language-model.ts';
import { caught } from '../helpers/caught.ts';

let server: http.Server;
let base: string;
const seen: Array<{ url: string; method: string; authorization: string | undefined; accept: string | undefined; socket: unknown; body: string; length: number | undefined }> = [];
/** What the `/long` route managed to hand to its socket before the client closed it. */
const longReply = { written: 0, closed: Promise.resolve() };
const fiftyMegabytes = 50 * 1000 * 1000;

beforeAll(async () => {
  server = http.createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    seen.push({ url: String(request.url), method: String(request.method), authorization: request.headers.authorization, accept: request.headers.accept, socket: request.socket, body: Buffer.concat(chunks).toString(), length: request.headers['content-length'] === undefined ? undefined : Number(request.headers['content-length']) });
    const redirect = /^\/redirect\/(\d+)\/(.*)$/.exec(String(request.url));
    if (redirect) {
      response.writeHead(Number(redirect[1]), { location: decodeURIComponent(redirect[2]!) });
      return response.end('moved');
    }
    if (request.url?.startsWith('/hang')) return; // never answers
    if (request.url?.startsWith('/gzip')) {
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      return response.end(zlib.gzipSync('{"packed":true}'));
    }
    if (request.url?.startsWith('/bomb')) {
      // 528 KB on the wire that decode to 528 MiB of zeros: 33 gzip members of 16 MiB each, which a reader joins.
      const member = zlib.gzipSync(Buffer.alloc(16 * 1024 * 1024));
      response.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'application/json' });
      return response.end(Buffer.concat(Array.from({ length: 33 }, () => member)));
    }
    if (request.url?.startsWith('/deflate')) {
      // Deflate as the standard has it (zlib-wrapped), or bare, as some servers send it.
      response.writeHead(200, { 'content-encoding': 'deflate', 'content-type': 'application/json' });
      return response.end(request.url.includes('bare') ? zlib.deflateRawSync('{"bare":true}') : zlib.deflateSync('{"wrapped":true}'));
    }
    if (request.url?.startsWith('/long')) {
      // A model writing without end: 50 MB of a reply, sent as fast as the client reads it, with or without a Content-Length.
      response.writeHead(200, { 'content-type': 'application/json', ...(request.url.includes('declared') ? { 'content-length': String(fiftyMegabytes) } : {}) });
      longReply.written = 0;
      longReply.closed = new Promise((resolve) => response.on('close', resolve));
      const piece = Buffer.alloc(64 * 1024, 'a');
      const write = () => {
        while (longReply.written < fiftyMegabytes && !response.destroyed) {
          longReply.written += piece.length;
          if (!response.write(piece)) return void response.once('drain', write);
        }
        if (!response.destroyed) response.end();
      };
      return write();
    }
    if (request.url?.startsWith('/cut')) {
      // Promises 100 bytes, sends 10, and closes: the reply breaks midway.
      response.writeHead(200, { 'content-length': '100' });
      response.write('{"partial"');
      return setTimeout(() => response.socket?.destroy(), 20);
    }
    response.writeHead(201, { 'X-Answer': 'Yes', 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const post = (url: string, extra: Partial<HttpRequest> = {}): HttpRequest => ({ url, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}', ...extra });

describe('the node:http transport', () => {
  it('answers with the status, lower-cased headers and the body of any response', async () => {
    const response = await createTransport({ timeoutMilliseconds: 5_000 })(post(`${base}/v1/chat/completions`));
    expect(response).toMatchObject({ status: 201, body: '{"ok":true}' });
    expect(response.headers['x-answer']).toBe('Yes');
    // As fetch asked: any type (a batch's results file is JSON Lines, not JSON).
    expect(seen.find((request) => request.url === '/v1/chat/completions')!.accept).toBe('*/*');
  });

  it('sends a body given in pieces as the bytes of the joined text, its length in bytes declared, and after a 307 again', async () => {
    const pieces = ['{"messages":', JSON.stringify([{ role: 'user', content: 'é \u2014 \ud83d\ude00 \ud800' }]), ',"n":', '1', '}'];
    const joined = pieces.join('');
    await createTransport({ timeoutMilliseconds: 5_000 })(post(`${base}/v1/pieces`, { body: 'not sent: the pieces are', bodyPieces: pieces }));
    expect(seen.find((request) => request.url === '/v1/pieces')!.body).toBe(Buffer.from(joined, 'utf8').toString());
    expect(seen.find((request) => request.url === '/v1/pieces')!.length).toBe(Buffer.byteLength(joined, 'utf8'));
    await createTransport({ timeoutMilliseconds: 5_000 })(post(`${base}/redirect/307/${encodeURIComponent('/v1/pieces-moved')}`, { bodyPieces: pieces }));
    expect(seen.find((request) => request.url === '/v1/pieces-moved')!.body).toBe(Buffer.from(joined, 'utf8').toString());
  });

  it('fails a refused connection as unreachable', async () => {
    const error = await caught(createTransport({ timeoutMilliseconds: 5_000 })(post(`http://127.0.0.1:${await closedPort()}/v1/chat/completions`)));
    expect(TransportFailure.isInstance(error) && error.kind).toBe('unreachable');
  });

  it('makes one attempt at a refused connection, however many retries are allowed, so that the run ends at once', async () => {
    let attempts = 0;
    const model = new OpenAiLanguageModel({ baseURL: `http://127.0.0.1:${await closedPort()}/v1`, model: 'm', timeoutMilliseconds: 5_000 });
    const counted = { modelId: 'm', doGenerate: (request: Parameters<typeof model.doGenerate>[0]) => { attempts += 1; return model.doGenerate(request); } };
    const client = new ModelClient({ languageModel: counted, sleep: async () => {}, retry: { maxRetries: 6 } });
    const error = await caught(client.generate({ messages: [{ role: 'user', content: 'hi' }] }, (response) => response));
    expect(LanguageModelError.isInstance(error) && error.unreachable).toBe(true);
    expect(attempts).toBe(1);
  });

  it('ends a request the server never answers as a timeout', async () => {
    const error = await caught(createTransport({ timeoutMilliseconds: 300 })(post(`${base}/hang`)));
    expect(TransportFailure.isInstance(error) && { kind: error.kind, message: error.message }).toEqual({ kind: 'timeout', message: 'no complete reply within 0.3 s' });
  });

  it('ends a request when the caller cancels, as cancelled', async () => {
    const controller = new AbortController();
    const pending = createTransport({ timeoutMilliseconds: 10_000 })(post(`${base}/hang`, { signal: controller.signal }));
    setTimeout(() => controller.abort(), 100);
    const error = await caught(pending);
    expect(TransportFailure.isInstance(error) && error.kind).toBe('cancelled');
  });

  it('sends one request after another over the same connection', async () => {
    const transport = createTransport({ timeoutMilliseconds: 5_000 });
    await transport(post(`${base}/v1/first`));
    await transport(post(`${base}/v1/second`));
    const [first, second] = ['/v1/first', '/v1/second'].map((url) => seen.find((request) => request.url === url)!.socket);
    expect(first).toBeDefined();
    expect(second).toBe(first);
  });

  it('decodes a gzip body a server sends although none was asked for', async () => {
    const response = await createTransport({ timeoutMilliseconds: 5_000 })(post(`${base}/gzip`));
    expect(response.body).toBe('{"packed":true}');
  });

  it('decodes a deflate body whether it is zlib-wrapped or bare, as fetch does', async () => {
    const transport = createTransport({ timeoutMilliseconds: 5_000 });
    expect((await transport(post(`${base}/deflate`))).body).toBe('{"wrapped":true}');
    expect((await transport(post(`${base}/deflate-bare`))).body).toBe('{"bare":true}');
  });

  it('refuses a compressed body that decodes past the bound on a reply rather than taking the memory', async () => {
    // 528 KB on the wire, 528 MiB decoded: decoding stops at the 8 MiB a reply may have.
    const error = await caught(createTransport({ timeoutMilliseconds: 30_000 })(post(`${base}/bomb`)));
    expect(TransportFailure.isInstance(error) && { kind: error.kind, message: error.message }).toEqual({ kind: 'too-large', message: 'the reply is longer than 8 MiB, the most read of one reply' });
  });

  it('stops reading a reply at its bound and closes the connection, before anything parses it (issue 42: three replies of 50 MB took 1.8 GB)', async () => {
    const error = await caught(createTransport({ timeoutMilliseconds: 30_000, maxReplyBytes: 1024 * 1024 })(post(`${base}/long`)));
    expect(TransportFailure.isInstance(error) && { kind: error.kind, message: error.message }).toEqual({ kind: 'too-large', message: 'the reply is longer than 1 MiB, the most read of one reply' });
    await longReply.closed;
    // What the sockets' buffers took on top of the bound; the server never got to write the rest.
    expect(longReply.written).toBeLessThan(fiftyMegabytes / 4);
  });

  it('refuses a reply whose Content-Length is over the bound without reading it', async () => {
    const error = await caught(createTransport({ timeoutMilliseconds: 30_000, maxReplyBytes: 1024 * 1024 })(post(`${base}/long-declared`)));
    expect(TransportFailure.isInstance(error) && error.kind).toBe('too-large');
    await longReply.closed;
    expect(longReply.written).toBeLessThan(fiftyMegabytes / 4);
  });

  it('fails the call of a reply over the bound with the reason and the setting that raises it, and does not ask again', async () => {
    let attempts = 0;
    const model = new OpenAiLanguageModel({ baseURL: `${base}/long`, model: 'm', timeoutMilliseconds: 30_000, maxReplyBytes: 1024 * 1024 });
    const counted = { modelId: 'm', doGenerate: (request: Parameters<typeof model.doGenerate>[0]) => { attempts += 1; return model.doGenerate(request); } };
    const client = new ModelClient({ languageModel: counted, sleep: async () => {}, retry: { maxRetries: 6 } });
    const error = await caught(client.generate({ messages: [{ role: 'user', content: 'hi' }] }, (response) => response));
    expect(LanguageModelError.isInstance(error) && { message: error.message, hint: error.hint, retryable: error.retryable }).toEqual({
      message: `the model endpoint ${base}/long sent a reply too long to read: the reply is longer than 1 MiB, the most read of one reply`,
      hint: 'a reply that long is a model writing without end; if your replies really are that long, raise SRAG_MAX_REPLY_BYTES',
      retryable: false,
    });
    expect(attempts).toBe(1);
  });

  it('fails a reply whose connection closes before its body is complete as interrupted, never as a shorter body', async () => {
    const error = await caught(createTransport({ timeoutMilliseconds: 5_000 })(post(`${base}/cut`)));
    expect(TransportFailure.isInstance(error) && error.kind).toBe('interrupted');
  });

  it('fails a URL it cannot send to as unreachable, naming the scheme', async () => {
    const error = await caught(createTransport({ timeoutMilliseconds: 5_000 })(post('ftp://127.0.0.1/v1/chat/completions')));
    expect(TransportFailure.isInstance(error) && { kind: error.kind, message: error.message }).toEqual({ kind: 'unreachable', message: 'ERR_INVALID_PROTOCOL: cannot send to a ftp: URL, only http: and https:' });
  });

  it('follows a 307 within its origin with the same method, body and key', async () => {
    const response = await createTransport({ timeoutMilliseconds: 5_000 })(post(`${base}/redirect/307/${encodeURIComponent('/v1/moved-307')}`, { body: '{"n":1}', headers: { Authorization: 'Bearer the-key' } }));
    expect(response.status).toBe(201);
    expect(seen.find((request) => request.url === '/v1/moved-307')).toMatchObject({ method: 'POST', body: '{"n":1}', authorization: 'Bearer the-key' });
  });

  it('drops the key when a redirect leaves the origin, as fetch does, and never sends credentials a Location carries', async () => {
    const other = base.replace('127.0.0.1', 'localhost').replace('http://', 'http://intruder:secret@');
    await createTransport({ timeoutMilliseconds: 5_000 })(post(`${base}/redirect/308/${encodeURIComponent(`${other}/v1/elsewhere`)}`, { headers: { Authorization: 'Bearer the-key' } }));
    expect(seen.find((request) => request.url === '/v1/elsewhere')).toMatchObject({ method: 'POST', authorization: undefined });
  });

  it('continues a POST redirected by 302 as a GET without its body', async () => {
    await createTransport({ timeoutMilliseconds: 5_000 })(post(`${base}/redirect/302/${encodeURIComponent('/v1/moved-302')}`, { body: '{"n":2}' }));
    expect(seen.find((request) => request.url === '/v1/moved-302')).toMatchObject({ method: 'GET', body: '' });
  });

  it('sends credentials in the base URL as Basic authorization', async () => {
    const url = base.replace('http://', 'http://proxy%20user:p%40ss@');
    await createTransport({ timeoutMilliseconds: 5_000 })(post(`${url}/v1/credentials`));
    const request = seen.find((candidate) => candidate.url === '/v1/credentials')!;
    expect(request.authorization).toBe(`Basic ${Buffer.from('proxy user:p@ss').toString('base64')}`);
  });

  it('keeps the key\'s Authorization header when the base URL carries credentials too', async () => {
    const url = base.replace('http://', 'http://user:pass@');
    await createTransport({ timeoutMilliseconds: 5_000 })(post(`${url}/v1/both`, { headers: { Authorization: 'Bearer the-key' } }));
    expect(seen.find((request) => request.url === '/v1/both')!.authorization).toBe('Bearer the-key');
  });
});
