import { ModelClient, type RetryPolicy } from '../../../core/index.ts';
import { createResponseCache } from '../apps-script/cache-service-response-cache.ts';
import type { ModelSettings } from '../apps-script/settings.ts';
import type { RequestLoop } from '../runtime/request-loop.ts';
import { UrlFetchLanguageModel } from './url-fetch-language-model.ts';

export interface ModelClientChoices {
  /** Requests one execution keeps in flight: each `fetchAll` carries at most this many. */
  maxConcurrency: number;
  retry: Partial<RetryPolicy>;
  /** Custom functions keep replies beyond CacheService's six hours (document properties). */
  keepRepliesLonger: boolean;
}

/**
 * Core's model client over UrlFetchApp: retries, Retry-After and caching are core's; the request
 * loop supplies the waiting (`sleep`) and the abort signal (deadline or Stop).
 */
export function createModelClient(settings: ModelSettings, loop: RequestLoop, choices: ModelClientChoices): ModelClient {
  return new ModelClient({
    languageModel: new UrlFetchLanguageModel({ baseUrl: settings.baseUrl, apiKey: settings.apiKey }, settings.model, loop),
    cache: createResponseCache({ keepLonger: choices.keepRepliesLonger }),
    maxConcurrency: choices.maxConcurrency,
    retry: choices.retry,
    sleep: (milliseconds) => loop.sleep(milliseconds),
    abortSignal: loop.abortSignal,
  });
}
