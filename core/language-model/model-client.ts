import pLimit from 'p-limit';
import { LanguageModelError } from '../errors/language-model-error.ts';
import { SragError } from '../errors/srag-error.ts';
import { contentHash } from '../hashing/content-hash.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';
import type { LanguageModel, LanguageModelRequest, LanguageModelResponse } from '../ports/language-model.ts';
import { messagesJsonTexts } from './messages-json-texts.ts';
import { requestJsonText } from './request-json-text.ts';
import type { ResponseCache } from './response-cache.ts';
import { SettingRefusals } from './setting-refusals.ts';
import { UsageTotals } from './usage-totals.ts';

export interface RetryPolicy {
  /** Further attempts after the first, for 429, 5xx, timeouts and network errors. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** A retry about to wait: what a progress line shows (`retry 2/6 in 4 s: 429`). */
export interface RetryNotice {
  model: string;
  /** 1 for the first retry. */
  attempt: number;
  maxRetries: number;
  delayMilliseconds: number;
  /** Why, in a word or two: `429`, `timeout`, `connection lost`. */
  reason: string;
}

export interface ModelClientOptions {
  languageModel: LanguageModel;
  cache?: ResponseCache;
  /** Requests in flight at once (SRAG_CONCURRENCY). */
  maxConcurrency?: number;
  retry?: Partial<RetryPolicy>;
  /**
   * Waits before a retry. The runtime's to give, as core has no timer: Node's timers, the Sheets
   * request loop (Utilities.sleep between rounds), or no waiting at all in tests.
   */
  sleep: (milliseconds: number) => Promise<void>;
  random?: () => number;
  abortSignal?: CancellationSignal;
  /** SHA-256 as hex for cache keys; core's portable one by default, a native one where there is one. */
  hashText?: (text: string) => string;
  /**
   * SHA-256 as hex of texts one after another: `hashText` of their concatenation (split where no
   * surrogate pair is), without making it — a native hash takes them one by one, where the joined
   * request key (~14 kB a batch call) was one more copy of the request. `hashText` of the joined
   * texts by default.
   */
  hashTexts?: (texts: readonly string[]) => string;
}

const defaultRetry: RetryPolicy = { maxRetries: 6, baseDelayMs: 500, maxDelayMs: 30_000 };
/** A server's own Retry-After is honoured up to this long; past it, the request is not worth holding. */
const maximumRetryAfterMilliseconds = 300_000;

/**
 * Every model call core makes goes through here: bounded concurrency, retries with exponential
 * backoff and full jitter that honour Retry-After, a response cache, and usage totals.
 *
 * A reply enters the cache only after `accept` returned without throwing, so a truncated or
 * invalid reply is never replayed from the cache. A reply is served only to the endpoint that
 * gave it (see `cacheKey`).
 *
 * Before the endpoint answered any request, two requests it refused the same way (a 4xx that is
 * not about what one request carried, see `SettingRefusals`) mean a setting it refuses: from then
 * on every call fails at once with that error marked `setting`, which stops a run without marking
 * its documents.
 */
export class ModelClient {
  readonly usage = new UsageTotals();
  readonly languageModel: LanguageModel;
  private readonly cache: ResponseCache | undefined;
  private readonly limit: ReturnType<typeof pLimit>;
  private readonly retry: RetryPolicy;
  private readonly sleep: (milliseconds: number) => Promise<void>;
  private readonly random: () => number;
  private readonly abortSignal: CancellationSignal | undefined;
  private readonly retryListeners = new Set<(notice: RetryNotice) => void>();
  private readonly hashText: (text: string) => string;
  private readonly hashTexts: (texts: readonly string[]) => string;
  private readonly refusals = new SettingRefusals();

  constructor(options: ModelClientOptions) {
    this.languageModel = options.languageModel;
    this.cache = options.cache;
    this.limit = pLimit(Math.max(1, options.maxConcurrency ?? 8));
    this.retry = { ...defaultRetry, ...options.retry };
    this.sleep = options.sleep;
    this.random = options.random ?? Math.random;
    this.abortSignal = options.abortSignal;
    const hashText = options.hashText ?? contentHash;
    this.hashText = hashText;
    this.hashTexts = options.hashTexts ?? ((texts) => hashText(texts.join('')));
  }

  /**
   * The request's key: model + messages + output schema, nothing else (no keys, no timestamps) —
   * the hash of `JSON.stringify([model, messages, outputSchema])`, which was the whole cache key
   * before replies were told apart by endpoint. Each message and the output schema are written once
   * per object (`requestJsonText`: a run sends the same schema and system message with every call,
   * and the wire sends the same texts) and hashed as they are, one after another.
   */
  requestKey(request: LanguageModelRequest): string {
    const model = request.model ?? this.languageModel.modelId;
    const outputSchema = request.outputSchema ? requestJsonText(request.outputSchema) : 'null';
    return this.hashTexts([`[${JSON.stringify(model)},`, ...messagesJsonTexts(request.messages), ',', outputSchema, ']']);
  }

  /**
   * The cache key: the endpoint (base URL without credentials or query) and the request key — the
   * hash of `JSON.stringify(endpoint)` + `,` + `requestKey`, a short text, so the document is hashed
   * once. Without an endpoint (none configured, a test double), the request key alone.
   */
  cacheKey(request: LanguageModelRequest): string {
    return this.keyFor(this.requestKey(request));
  }

  /** Whether the endpoint answered a request of this client (a success status, whatever the reply said). */
  get endpointAnswered(): boolean {
    return this.refusals.answered;
  }

  private keyFor(requestKey: string): string {
    const endpoint = this.languageModel.endpoint;
    return endpoint === undefined ? requestKey : this.hashText(`${JSON.stringify(endpoint)},${requestKey}`);
  }

  /**
   * Generate a reply and hand it to `accept`; its return value is returned. When `accept` throws,
   * the reply is not cached and the error propagates. `bypassCache` forces a fresh call (used
   * when a cached or previous reply was unusable).
   */
  async generate<T>(
    request: LanguageModelRequest,
    accept: (response: LanguageModelResponse) => T,
    { bypassCache = false }: { bypassCache?: boolean } = {},
  ): Promise<T> {
    const model = request.model ?? this.languageModel.modelId;
    const endpoint = this.languageModel.endpoint;
    const requestKey = this.cache ? this.requestKey(request) : '';
    const key = this.cache ? this.keyFor(requestKey) : '';
    if (this.cache && !bypassCache) {
      // With no endpoint configured no call can be made: any endpoint's reply is served (and said to be cached).
      const cached = endpoint === undefined && this.cache.findForAnyEndpoint ? await this.cache.findForAnyEndpoint(requestKey) : await this.cache.get(key);
      if (cached) {
        try {
          const result = accept({ ...cached, cached: true });
          this.usage.recordCacheHit(model);
          return result;
        } catch {
          // A cached reply that no longer passes validation (e.g. stricter parsing) is refetched.
        }
      }
    }
    // Chat calls alone are judged for a setting the endpoint refuses: an embeddings or batch call goes elsewhere.
    const response = await this.limit(() => this.callWithRetries(model, async (abortSignal) => {
      const answer = await this.languageModel.doGenerate({ ...request, model, abortSignal });
      this.usage.recordCall(model, answer.usage, { usageMissing: answer.usageMissing });
      return answer;
    }, request.abortSignal, this.refusals));
    const result = accept(response);
    if (this.cache) {
      await this.cache.set(key, { text: response.text, model: response.model, usage: response.usage, ...(endpoint !== undefined ? { endpoint, requestKey } : {}) });
    }
    return result;
  }

  /**
   * One call to the endpoint that is not a chat reply (e.g. embeddings), under the same bound on
   * requests in flight and the same retries as `generate`. `attempt` gets the signal to pass on.
   */
  call<T>(model: string, attempt: (abortSignal: CancellationSignal | undefined) => Promise<T>, requestSignal?: CancellationSignal): Promise<T> {
    return this.limit(() => this.callWithRetries(model, attempt, requestSignal, undefined));
  }

  /** Calls `listener` before each retry's wait; returns a function that stops the calls. */
  onRetry(listener: (notice: RetryNotice) => void): () => void {
    this.retryListeners.add(listener);
    return () => this.retryListeners.delete(listener);
  }

  /** `refusals`: the chat calls' judge of a setting the endpoint refuses, or none for other calls. */
  private async callWithRetries<T>(
    model: string, call: (abortSignal: CancellationSignal | undefined) => Promise<T>, requestSignal: CancellationSignal | undefined, refusals: SettingRefusals | undefined,
  ): Promise<T> {
    for (let attempt = 0; ; attempt += 1) {
      this.throwIfAborted(requestSignal);
      refusals?.throwIfRefused();
      try {
        const answer = await call(requestSignal ?? this.abortSignal);
        refusals?.recordAnswer();
        return answer;
      } catch (error) {
        this.throwIfAborted(requestSignal);
        if (!LanguageModelError.isInstance(error) || !error.retryable || attempt >= this.retry.maxRetries) throw refusals ? refusals.judge(error) : error;
        this.usage.recordRetry(model);
        const delayMilliseconds = this.delayBeforeRetry(attempt, error.retryAfterSeconds);
        const notice: RetryNotice = { model, attempt: attempt + 1, maxRetries: this.retry.maxRetries, delayMilliseconds, reason: error.reason };
        for (const listener of this.retryListeners) listener(notice);
        await this.sleepUnlessAborted(delayMilliseconds, requestSignal);
      }
    }
  }

  /** Retry-After wins when the endpoint sent it; otherwise exponential backoff with full jitter. */
  private delayBeforeRetry(attempt: number, retryAfterSeconds: number | undefined): number {
    if (retryAfterSeconds !== undefined && Number.isFinite(retryAfterSeconds)) {
      return Math.min(maximumRetryAfterMilliseconds, Math.max(0, retryAfterSeconds * 1000));
    }
    const ceiling = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** attempt);
    return ceiling / 2 + (this.random() * ceiling) / 2;
  }

  /** A cancel during a backoff wait ends the wait at once rather than after it. */
  private async sleepUnlessAborted(milliseconds: number, requestSignal: CancellationSignal | undefined): Promise<void> {
    const signals = [this.abortSignal, requestSignal].filter((signal): signal is CancellationSignal => signal !== undefined);
    let onAbort: () => void = () => {};
    const aborted = new Promise<void>((resolve) => {
      onAbort = resolve;
      for (const signal of signals) signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([this.sleep(milliseconds), aborted]);
    } finally {
      for (const signal of signals) signal.removeEventListener('abort', onAbort);
    }
    this.throwIfAborted(requestSignal);
  }

  private throwIfAborted(requestSignal?: CancellationSignal): void {
    if (this.abortSignal?.aborted || requestSignal?.aborted) {
      throw new SragError({ code: 'CANCELLED', message: 'cancelled before the model call finished' });
    }
  }
}
