import type { LanguageModel } from '../../core/index.ts';
import type { ParameterAdaptations } from '../../openai-wire/index.ts';
import { OpenAiLanguageModel } from './openai-language-model.ts';
import { requireModelConfigured, type SragSettings } from './read-settings.ts';

/**
 * The configured endpoint as a language model. Without one, each call fails with the one-line
 * missing-endpoint error — but only a call: replies in the response cache never reach here, so
 * questions and documents answered before work without an endpoint. Its `endpoint` (part of every
 * cache key) is the configured one's, and none without one: such a session reads any endpoint's
 * cached reply (see `ResponseCache.findForAnyEndpoint`).
 */
export function endpointLanguageModel(settings: SragSettings, adaptations?: ParameterAdaptations): LanguageModel {
  const endpoint = new OpenAiLanguageModel({
    apiKey: settings.apiKey, baseURL: settings.baseURL, keyHeader: settings.keyHeader, model: settings.model, timeoutMilliseconds: settings.requestTimeoutMilliseconds, maxReplyBytes: settings.maxReplyBytes,
    adaptations, requestSettings: { reasoningEffort: settings.reasoningEffort, maxOutputTokens: settings.maxOutputTokens },
  });
  return {
    modelId: endpoint.modelId,
    endpoint: settings.endpoint,
    doGenerate: async (request) => {
      requireModelConfigured(settings);
      return endpoint.doGenerate(request);
    },
  };
}
