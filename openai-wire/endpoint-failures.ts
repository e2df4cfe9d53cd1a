import { firstLine, LanguageModelError, redactSecrets, SragError } from '../core/index.ts';
import type { HttpResponse } from './http-transport.ts';
import type { OpenAiEndpoint } from './openai-endpoint.ts';
import { parseRetryAfter } from './parse-retry-after.ts';
import type { TransportFailure } from './transport-failure.ts';

/** Statuses worth another try: a timeout, a conflict, a rate limit, a server error. */
const retryableStatuses = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;
/** How much of a server's message an error keeps. */
const detailLength = 300;

/** Only the fields read from an OpenAI-style error body. */
interface ErrorBody {
  error?: { message?: string; code?: string | null; type?: string };
}

/**
 * Every failure of a call to the endpoint becomes an error here, and only here: the retryable
 * statuses and Retry-After, quota errors, hints, shortening and redaction are decided once for
 * both runtimes. Core's model client then retries what is retryable.
 */
export class EndpointFailures {
  private readonly secrets: Array<string | undefined>;
  /** The base URL as errors show it: credentials and query values removed. */
  readonly shownUrl: string;

  constructor(private readonly endpoint: OpenAiEndpoint) {
    this.secrets = [endpoint.apiKey, endpoint.baseUrl];
    this.shownUrl = this.redact(endpoint.baseUrl);
  }

  redact(text: string): string {
    return redactSecrets(text, this.secrets);
  }

  /** An HTTP error answer; `model` names the model the request asked for (a 404's hint). */
  fromResponse(response: HttpResponse, model: string): SragError {
    const body = parseErrorBody(response.body);
    const status = response.status;
    const detail = this.redact(firstLine(body?.error?.message ?? response.body, detailLength));
    // A spent quota answers 429 like a rate limit, but no wait brings it back: retrying only delays the news.
    if (status === 429 && /insufficient_quota/.test(`${body?.error?.code ?? ''} ${body?.error?.type ?? ''}`)) {
      return new SragError({ code: 'QUOTA_EXCEEDED', message: `the model provider's quota is used up: ${detail}`, hint: 'check the plan and billing of the API key' });
    }
    const hints = this.endpoint.hints;
    return new LanguageModelError({
      message: `the model endpoint answered ${status}: ${detail}`,
      status,
      retryable: retryableStatuses(status),
      retryAfterSeconds: parseRetryAfter(response.headers),
      hint: status === 401 || status === 403 ? hints.refusedKey : status === 404 && model ? hints.unknownModel(model) : undefined,
      reason: String(status),
    });
  }

  /** A request that got no response at all. */
  fromTransportFailure(failure: TransportFailure): SragError {
    const detail = this.redact(firstLine(failure.message, detailLength));
    switch (failure.kind) {
      case 'cancelled':
        return new SragError({ code: 'CANCELLED', message: 'the model request was cancelled', cause: failure });
      case 'unreachable':
        return new LanguageModelError({ message: `cannot reach the model endpoint ${this.shownUrl}`, retryable: false, unreachable: true, hint: this.endpoint.hints.unreachable, reason: 'unreachable' });
      case 'timeout':
        return new LanguageModelError({ message: `the model request timed out (${this.shownUrl})`, retryable: true, reason: 'timeout' });
      case 'throttled':
        return new LanguageModelError({ message: `the runtime held the request back: ${detail}`, retryable: true, reason: 'throttled' });
      case 'interrupted':
        return new LanguageModelError({ message: `the connection to the model endpoint ${this.shownUrl} broke: ${detail}`, retryable: true, reason: 'connection lost' });
      case 'too-large':
        return new LanguageModelError({ message: `the model endpoint ${this.shownUrl} sent a reply too long to read: ${detail}`, retryable: false, hint: this.endpoint.hints.tooLarge, reason: 'reply too long' });
    }
  }

  /** A reply that parsed but lacks what was asked for (e.g. fewer embeddings than texts). */
  unusableReply(detail: string): SragError {
    return new LanguageModelError({ message: `the model endpoint ${this.shownUrl} sent an unusable reply: ${this.redact(detail)}`, retryable: false, reason: 'unusable reply' });
  }

  /** A success status whose body is not the JSON promised; a cut connection looks like this. */
  unreadableReply(): SragError {
    return new LanguageModelError({ message: `the model endpoint ${this.shownUrl} sent a reply that is not JSON`, retryable: true, reason: 'unreadable reply' });
  }
}

function parseErrorBody(text: string): ErrorBody | undefined {
  try {
    const body = JSON.parse(text) as unknown;
    return typeof body === 'object' && body !== null ? (body as ErrorBody) : undefined;
  } catch {
    return undefined;
  }
}
