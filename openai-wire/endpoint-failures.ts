import { firstLine, LanguageModelError, redactSecrets, SragError } from '../core/index.ts';
import type { HttpResponse } from './http-transport.ts';
import type { OpenAiEndpoint } from './openai-endpoint.ts';
import { parseRetryAfter } from './parse-retry-after.ts';
import { readErrorBody, type ErrorDetail } from './read-error-body.ts';
import { refusedParameter } from './refused-parameter.ts';
import type { TransportFailure } from './transport-failure.ts';

/** Statuses worth another try: a timeout, a conflict, a rate limit, a server error. */
const retryableStatuses = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;
/** How much of a server's message an error keeps. */
const detailLength = 300;
/**
 * Codes and words of a refusal about what one request carried rather than about a setting: a
 * prompt longer than the context (OpenAI's `context_length_exceeded`, vLLM's "maximum context
 * length", llama.cpp server's `exceed_context_size_error`), content a filter or moderation
 * stopped (Azure's `content_filter`, OpenRouter's 403 "flagged"), a string too long.
 */
const documentCodes = /^(?:context_length_exceeded|content_filter|content_policy_violation|string_above_max_length|exceed_context_size_error)$/;
const documentWords = /maximum context length|context (?:size|window|length)|exceeds the available context|too many tokens|prompt is too long|input is too long|content (?:management )?polic|content filter|was flagged|flagged by|moderation|safety system/i;

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

  /**
   * An HTTP error answer; `model` names the model the request asked for (a 404's hint). A 4xx is
   * told apart as one about what the request carried (`aboutDocument`), one naming a parameter
   * the endpoint refuses (`refusedParameter`), or one that may be a setting's (the hint says which
   * settings decide the request).
   */
  fromResponse(response: HttpResponse, model: string): SragError {
    const body = readErrorBody(response.body);
    const status = response.status;
    const detail = this.redact(firstLine(body?.message ?? response.body, detailLength));
    // A spent quota answers 429 like a rate limit, but no wait brings it back: retrying only delays the news.
    if (status === 429 && /insufficient_quota/.test(`${body?.code ?? ''} ${body?.type ?? ''}`)) {
      return new SragError({ code: 'QUOTA_EXCEEDED', message: `the model provider's quota is used up: ${detail}`, hint: 'check the plan and billing of the API key' });
    }
    // OpenRouter's "insufficient credits" (https://openrouter.ai/docs/api/reference/errors-and-debugging): as final as a spent quota.
    if (status === 402) {
      return new SragError({ code: 'QUOTA_EXCEEDED', message: `the model provider wants payment: ${detail}`, hint: 'add credits to the account of the API key' });
    }
    const hints = this.endpoint.hints;
    const aboutDocument = status === 413 || (status >= 400 && status < 500 && isAboutDocument(body));
    const refused = status === 400 || status === 422 ? refusedParameter(body) : undefined;
    return new LanguageModelError({
      message: `the model endpoint answered ${status}: ${detail}`,
      status,
      retryable: retryableStatuses(status),
      retryAfterSeconds: parseRetryAfter(response.headers),
      hint: aboutDocument ? undefined
        : status === 401 || status === 403 ? hints.refusedKey
          : status === 404 && model ? hints.unknownModel(model)
            : status >= 400 && status < 500 && !retryableStatuses(status) ? hints.refusedRequest : undefined,
      reason: String(status),
      aboutDocument,
      ...(refused ? { refusedParameter: refused } : {}),
    });
  }

  /**
   * A success status whose body carries an error instead of a completion: OpenRouter's way when
   * the provider failed once the request was accepted ("the returned HTTP response status will be
   * 200 and any error … emitted in the response body"). Its `code`, when a status, decides retrying.
   */
  errorInReply(body: { error?: unknown }): SragError {
    const detail = readErrorBody(JSON.stringify(body)) ?? {};
    const code = Number((body.error as { code?: unknown } | undefined)?.code);
    const status = Number.isInteger(code) && code >= 400 && code < 600 ? code : 502;
    return new LanguageModelError({
      message: `the model endpoint ${this.shownUrl} answered 200 with an error (${status}): ${this.redact(firstLine(detail.message ?? 'no message', detailLength))}`,
      status, retryable: retryableStatuses(status), reason: String(status),
    });
  }

  /** A reply whose model refused to give what was asked (`message.refusal`, structured outputs' refusal). */
  refusal(text: string): SragError {
    return new LanguageModelError({
      message: `the model refused: ${this.redact(firstLine(text, detailLength))}`,
      status: 200, retryable: false, aboutDocument: true, reason: 'refusal',
    });
  }

  /** A reply withheld by the endpoint's content filter (`finish_reason: content_filter`). */
  contentFiltered(): SragError {
    return new LanguageModelError({
      message: 'the endpoint\'s content filter withheld the reply (finish_reason content_filter)',
      status: 200, retryable: false, aboutDocument: true, reason: 'content filter',
    });
  }

  /**
   * A reply cut at its output limit (`finish_reason: length`): asking again gets the same cut. With
   * reasoning tokens counted, the hint says reasoning spent the budget and what to change.
   */
  cutAtLength({ text, completionTokens, reasoningTokens }: { text: string; completionTokens: number; reasoningTokens: number | undefined }): SragError {
    const spent = reasoningTokens ? `, ${reasoningTokens} of them reasoning` : '';
    const what = text.trim() === '' ? 'no answer' : 'an answer cut short';
    return new LanguageModelError({
      message: `the reply reached its output limit (finish_reason length) with ${what} after ${completionTokens} completion tokens${spent}`,
      status: 200, retryable: false, aboutDocument: true, reason: 'length',
      hint: reasoningTokens ? this.endpoint.hints.reasoningSpentBudget ?? defaultHints.reasoningSpentBudget : this.endpoint.hints.outputLimit ?? defaultHints.outputLimit,
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

/** Hints for a runtime that gives none of its own. */
const defaultHints = {
  reasoningSpentBudget: 'reasoning spent the output budget: lower the reasoning effort, or raise the output limit',
  outputLimit: 'raise the output limit, or ask for less per call',
};

function isAboutDocument(body: ErrorDetail | undefined): boolean {
  if (!body) return false;
  return documentCodes.test(body.code ?? '') || documentCodes.test(body.type ?? '') || documentWords.test(body.message ?? '') || /^messages\b/.test(body.param ?? '');
}
