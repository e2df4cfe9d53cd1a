import type { CancellationSignal } from '../core/index.ts';
import { EndpointFailures } from './endpoint-failures.ts';
import type { HttpTransport } from './http-transport.ts';
import { endpointUrl, type OpenAiEndpoint } from './openai-endpoint.ts';
import { TransportFailure } from './transport-failure.ts';

export interface OpenAiWireOptions {
  endpoint: OpenAiEndpoint;
  /** How requests travel: Node's fetch, the Sheets request loop, a test's function. */
  transport: HttpTransport;
}

/**
 * One OpenAI-compatible API over one transport: JSON in, JSON out, every failure an `SragError`.
 * The chat model and the text embedder are built on it; files and batches would be too.
 */
export class OpenAiWire {
  readonly endpoint: OpenAiEndpoint;
  readonly failures: EndpointFailures;
  private readonly transport: HttpTransport;

  constructor({ endpoint, transport }: OpenAiWireOptions) {
    this.endpoint = endpoint;
    this.transport = transport;
    this.failures = new EndpointFailures(endpoint);
  }

  /**
   * POST `body` to `path` (e.g. `chat/completions`) and return the parsed reply. An error status,
   * no response or a reply that is not JSON throws the error `EndpointFailures` makes of it;
   * `model` names the requested model in a 404's hint.
   */
  async postJson(path: string, body: unknown, { model, signal }: { model: string; signal?: CancellationSignal }): Promise<unknown> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (this.endpoint.apiKey) headers.Authorization = `Bearer ${this.endpoint.apiKey}`;
    let response;
    try {
      response = await this.transport({ url: endpointUrl(this.endpoint.baseUrl, path), method: 'POST', headers, body: JSON.stringify(body), signal });
    } catch (error) {
      if (TransportFailure.isInstance(error)) throw this.failures.fromTransportFailure(error);
      throw error;
    }
    if (response.status < 200 || response.status >= 300) throw this.failures.fromResponse(response, model);
    try {
      return JSON.parse(response.body) as unknown;
    } catch {
      throw this.failures.unreadableReply();
    }
  }
}
