import { ModelClient, type RetryPolicy } from '../../../core/index.ts';
import { isAzureOpenAiHost, OpenAiChatModel, OpenAiWire, type EndpointHints } from '../../../openai-wire/index.ts';
import { createResponseCache } from '../apps-script/cache-service-response-cache.ts';
import { propertyParameterAdaptations } from '../apps-script/property-parameter-adaptations.ts';
import type { ModelSettings } from '../apps-script/settings.ts';
import type { RequestLoop } from '../runtime/request-loop.ts';

export interface ModelClientChoices {
  /** Requests one execution keeps in flight: each `fetchAll` carries at most this many. */
  maxConcurrency: number;
  retry: Partial<RetryPolicy>;
  /** Custom functions keep replies beyond CacheService's six hours (document properties). */
  keepRepliesLonger: boolean;
}

/** Fixes in the words of the add-on's settings dialog. */
export const settingsHints: EndpointHints = {
  refusedKey: 'the endpoint refused the API key: save a new one in srag › Settings',
  unknownModel: (model) => `the endpoint does not know model "${model}" (or the base URL is wrong): check srag › Settings`,
  unreachable: 'check the base URL in srag › Settings; Apps Script reaches only public https addresses',
  noBatchApi: 'the Sheets add-on does not use the Batch API: its extraction finishes within the sheet\'s executions; for half-price batches of large corpora use the srag CLI (srag ingest … --batch-api)',
  refusedRequest: 'check the model and base URL in srag › Settings',
  reasoningSpentBudget: 'reasoning spent the output budget: choose a model without reasoning, or ask for fewer documents at once',
  outputLimit: 'ask for fewer documents at once',
};

/**
 * Core's model client over the OpenAI-compatible wire, whose transport is the request loop (its
 * requests go out together in the next `UrlFetchApp.fetchAll`). Retries, Retry-After and caching
 * are core's; the loop supplies the waiting (`sleep`) and the abort signal (deadline or Stop). The
 * wire is the CLI's: requests fit the model, refused parameters are learned and kept in the
 * document properties, an Azure OpenAI base URL gets its key in the `api-key` header, and replies are
 * cached under keys that name the endpoint.
 */
export function createModelClient(settings: ModelSettings, loop: RequestLoop, choices: ModelClientChoices): ModelClient {
  const wire = new OpenAiWire({
    endpoint: { baseUrl: settings.baseUrl, apiKey: settings.apiKey, hints: settingsHints, keyHeader: isAzureOpenAiHost(settings.baseUrl) ? 'api-key' : 'authorization' },
    transport: loop.send,
    adaptations: propertyParameterAdaptations(settings.baseUrl),
  });
  return new ModelClient({
    languageModel: new OpenAiChatModel(wire, settings.model),
    cache: createResponseCache({ keepLonger: choices.keepRepliesLonger }),
    maxConcurrency: choices.maxConcurrency,
    retry: choices.retry,
    sleep: (milliseconds) => loop.sleep(milliseconds),
    abortSignal: loop.abortSignal,
  });
}
