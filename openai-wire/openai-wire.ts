import type { CancellationSignal } from '../core/index.ts';
import type { ChatRequestSettings } from './chat-completion-request.ts';
import { EndpointFailures } from './endpoint-failures.ts';
import { endpointIdentity } from './endpoint-identity.ts';
import { ParameterAdaptations } from './parameter-adaptations.ts';
import type { HttpRequest, HttpTransport } from './http-transport.ts';
import { endpointUrl, type OpenAiEndpoint } from './openai-endpoint.ts';
import { TransportFailure } from './transport-failure.ts';

export interface OpenAiWireOptions {
  endpoint: OpenAiEndpoint;
  /** How requests travel: node:http, the Sheets request loop, a test's function. */
  transport: HttpTransport;
  /**
   * Parameter adaptations learned before (a store's, loaded for this endpoint), kept as more are
   * learned; a fresh, unsaved set by default.
   */
  adaptations?: ParameterAdaptations;
  /** Reasoning effort and output limit for chat requests and Batch API lines; none by default. */
  requestSettings?: ChatRequestSettings;
}

/**
 * One OpenAI-compatible API over one transport: JSON in, JSON out, every failure an `SragError`.
 * The chat model, the text embedder and the Batch API (files and batches) are built on it.
 */
export class OpenAiWire {
  readonly endpoint: OpenAiEndpoint;
  readonly failures: EndpointFailures;
  /** The endpoint as a reply's origin (base URL without credentials or query): part of the cache key. */
  readonly identity: string;
  /** What this endpoint's models were found to refuse, shared by the chat model and the Batch API's lines. */
  readonly adaptations: ParameterAdaptations;
  /** How requests are asked beyond their messages (reasoning effort, output limit). */
  readonly requestSettings: ChatRequestSettings;
  private readonly transport: HttpTransport;

  constructor({ endpoint, transport, adaptations, requestSettings = {} }: OpenAiWireOptions) {
    this.requestSettings = requestSettings;
    this.endpoint = endpoint;
    this.transport = transport;
    this.failures = new EndpointFailures(endpoint);
    this.identity = endpointIdentity(endpoint.baseUrl);
    this.adaptations = adaptations ?? new ParameterAdaptations();
  }

  /**
   * POST `body` to `path` (e.g. `chat/completions`) and return the parsed reply. An error status,
   * no response or a reply that is not JSON throws the error `EndpointFailures` makes of it;
   * `model` names the requested model in a 404's hint.
   */
  async postJson(path: string, body: unknown, options: { model: string; signal?: CancellationSignal }): Promise<unknown> {
    return this.postJsonText(path, JSON.stringify(body), options);
  }

  /** `postJson` with the body already written as JSON text, whole or in pieces that join to it (see `chatRequestText`). */
  async postJsonText(path: string, text: string | readonly string[], { model, signal }: { model: string; signal?: CancellationSignal }): Promise<unknown> {
    return parseJson(await this.send({ method: 'POST', path, contentType: 'application/json', body: text, model, signal }), this.failures);
  }

  /** GET `path` (e.g. `batches/batch_abc`) and return the parsed reply; failures as `postJson`'s. */
  async getJson(path: string, { signal }: { signal?: CancellationSignal } = {}): Promise<unknown> {
    return parseJson(await this.send({ method: 'GET', path, model: '', signal }), this.failures);
  }

  /** GET `path` and return the body as text (a file's content); failures as `postJson`'s. */
  async getText(path: string, { signal }: { signal?: CancellationSignal } = {}): Promise<string> {
    return this.send({ method: 'GET', path, model: '', signal });
  }

  /**
   * POST a `multipart/form-data` form to `path`: text `fields`, then one text file (how `files`
   * takes an upload). The file is JSON Lines, so the whole body stays text.
   */
  async postForm(path: string, form: { fields: Record<string, string>; file: { field: string; name: string; content: string } }, { signal }: { signal?: CancellationSignal } = {}): Promise<unknown> {
    const boundary = `srag-form-${formBoundary(form.file.content)}`;
    const parts = Object.entries(form.fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${form.file.field}"; filename="${form.file.name}"\r\nContent-Type: application/jsonl\r\n\r\n`);
    const body = `${parts.join('')}${form.file.content}\r\n--${boundary}--\r\n`;
    return parseJson(await this.send({ method: 'POST', path, contentType: `multipart/form-data; boundary=${boundary}`, body, model: '', signal }), this.failures);
  }

  /** One request; the body of a success status, or the error the failure is. */
  private async send({ method, path, contentType, body, model, signal }: {
    method: 'GET' | 'POST'; path: string; contentType?: string; body?: string | readonly string[]; model: string; signal?: CancellationSignal;
  }): Promise<string> {
    const headers: Record<string, string> = {};
    if (contentType) headers['Content-Type'] = contentType;
    if (this.endpoint.apiKey && this.endpoint.keyHeader === 'api-key') headers['api-key'] = this.endpoint.apiKey;
    else if (this.endpoint.apiKey) headers.Authorization = `Bearer ${this.endpoint.apiKey}`;
    let response;
    try {
      response = await this.transport(withBody({ url: endpointUrl(this.endpoint.baseUrl, path), method, headers, signal }, body));
    } catch (error) {
      if (TransportFailure.isInstance(error)) throw this.failures.fromTransportFailure(error);
      throw error;
    }
    if (response.status < 200 || response.status >= 300) throw this.failures.fromResponse(response, model);
    return response.body;
  }
}

/**
 * `request` with its `body`, and its `bodyPieces` when it comes in pieces: then `body` is joined when
 * first read (a getter, which spreading the request would call: the transport gets this object).
 */
function withBody(request: HttpRequest, body: string | readonly string[] | undefined): HttpRequest {
  if (body === undefined) return request;
  if (typeof body === 'string') return { ...request, body };
  let joined: string | undefined;
  return {
    ...request,
    get body() {
      joined ??= body.join('');
      return joined;
    },
    bodyPieces: body,
  };
}

function parseJson(text: string, failures: EndpointFailures): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw failures.unreadableReply();
  }
}

/** A boundary that does not occur in the content: a counter past every digit run that could clash. */
function formBoundary(content: string): string {
  let boundary = 0;
  while (content.includes(`srag-form-${boundary}`)) boundary += 1;
  return String(boundary);
}
