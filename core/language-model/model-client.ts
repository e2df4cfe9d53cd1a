import pLimit from 'p-limit';
import { LanguageModelError } from '../errors/language-model-error.ts';
import { SragError } from '../errors/srag-error.ts';
import { contentHash } from '../hashing/content-hash.ts';
import type { CancellationSignal } from '../ports/cancellation-signal.ts';
import type { LanguageModel, LanguageModelRequest, LanguageModelResponse } from '../ports/language-model.ts';
import type { ResponseCache } from './response-cache.ts';
import { UsageTotals } from './usage-totals.ts';

export interface RetryPolicy {
  /** Further attempts after the first, for 429, 5xx, timeouts and network errors. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface ModelClientOptions {
  languageModel: LanguageModel;
  cache?: ResponseCache;
  /** Requests in flight at once (SRAG_CONCURRENCY). */
  maxConcurrency?: number;
  retry?: Partial<RetryPolicy>;
  /** Injected so that Apps Script (Utilities.sleep) and tests (no waiting) can supply their own. */
  sleep?: (milliseconds: number) => Promise<void>;
  random?: () => number;
  abortSignal?: CancellationSignal;
  /** SHA-256 as hex for cache keys; core's portable one by default, a native one where there is one. */
  hashText?: (text: string) => string;
}

const defaultRetry: RetryPolicy = { maxRetries: 6, baseDelayMs: 500, maxDelayMs: 30_000 };
/** A server's own Retry-After is honoured up to this long; past it, the request is not worth holding. */
const maximumRetryAfterMilliseconds = 300_000;

function defaultSleep(milliseconds: number): Promise<void> {
  return new Promise((resolve) => globalThis.setTimeout(resolve, milliseconds));
}

/**
 * Every model call core makes goes through here: bounded concurrency, retries with exponential
 * backoff and full jitter that honour Retry-After, a response cache, and usage totals.
 *
 * A reply enters the cache only after `accept` returned without throwing, so a truncated or
 * invalid reply is never replayed from the cache.
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
  private readonly hashText: (text: string) => string;

  constructor(options: ModelClientOptions) {
    this.languageModel = options.languageModel;
    this.cache = options.cache;
    this.limit = pLimit(Math.max(1, options.maxConcurrency ?? 8));
    this.retry = { ...defaultRetry, ...options.retry };
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
    this.abortSignal = options.abortSignal;
    this.hashText = options.hashText ?? contentHash;
  }

  /** The cache key: model + messages + output schema, nothing else (no keys, no timestamps). */
  cacheKey(request: LanguageModelRequest): string {
    const model = request.model ?? this.languageModel.modelId;
    return this.hashText(JSON.stringify([model, request.messages, request.outputSchema ?? null]));
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
    const key = this.cache ? this.cacheKey(request) : '';
    if (this.cache && !bypassCache) {
      const cached = await this.cache.get(key);
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
    const response = await this.limit(() => this.callWithRetries({ ...request, model }));
    const result = accept(response);
    if (this.cache) await this.cache.set(key, { text: response.text, model: response.model, usage: response.usage });
    return result;
  }

  private async callWithRetries(request: LanguageModelRequest & { model: string }): Promise<LanguageModelResponse> {
    for (let attempt = 0; ; attempt += 1) {
      this.throwIfAborted(request.abortSignal);
      try {
        const response = await this.languageModel.doGenerate({ ...request, abortSignal: request.abortSignal ?? this.abortSignal });
        this.usage.recordCall(request.model, response.usage);
        return response;
      } catch (error) {
        this.throwIfAborted(request.abortSignal);
        const retryable = LanguageModelError.isInstance(error) && (error as LanguageModelError).retryable;
        if (!retryable || attempt >= this.retry.maxRetries) throw error;
        this.usage.recordRetry(request.model);
        await this.sleepUnlessAborted(this.delayBeforeRetry(attempt, (error as LanguageModelError).retryAfterSeconds), request.abortSignal);
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
