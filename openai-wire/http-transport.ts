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
  /**
   * The body in pieces that join to `body`, when the wire wrote it so (a chat request: its messages
   * and output schema as core keeps their text): a transport that sends bytes encodes them one by
   * one (they split where no surrogate pair is), and `body` is joined only when it is read. A batch
   * call's body is ~14 kB of text, twice that in memory joined, as its instructions hold a
   * character past Latin-1.
   */
  bodyPieces?: readonly string[];
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
 * is one (node/runtime), the Sheets request loop over `UrlFetchApp.fetchAll` another, a test's
 * function a third: the vercel/ai pattern of a provider that is handed its `fetch`.
 *
 * A transport reads at most the bound it was made with (`defaultMaxReplyBytes` unless told
 * otherwise) of a reply's body, counted as it arrives and before anything parses it: a longer reply
 * rejects with a `TransportFailure` of kind `too-large`. Three replies of 50 MB took srag to 1.8 GB
 * and 43 s and left a 230 MB database (issue 42).
 */
export type HttpTransport = (request: HttpRequest) => Promise<HttpResponse>;

/**
 * The most bytes read of one reply by default: 8 MiB. srag's replies are a record, an SQL query or
 * an answer, a few kilobytes; even a completion of 128,000 tokens (far more than any of them
 * needs) is about half a megabyte of text, under 2 MiB escaped in the reply's JSON with its
 * envelope — a longer reply is a model writing without end. An embeddings reply of 64 texts at
 * 3,072 dimensions (the most srag asks for at once) is about 4 MB.
 */
export const defaultMaxReplyBytes = 8 * 1024 * 1024;
