import type { LanguageModel } from '../../core/index.ts';
import { OpenAiLanguageModel } from './openai-language-model.ts';
import { requireModelConfigured, type SragSettings } from './read-settings.ts';

/**
 * The configured endpoint as a language model. Without one, each call fails with the one-line
 * missing-endpoint error — but only a call: replies in the response cache never reach here, so
 * questions and documents answered before work without an endpoint.
 */
export function endpointLanguageModel(settings: SragSettings): LanguageModel {
  const endpoint = new OpenAiLanguageModel({
    apiKey: settings.apiKey, baseURL: settings.baseURL, model: settings.model, timeoutMilliseconds: settings.requestTimeoutMilliseconds, maxReplyBytes: settings.maxReplyBytes,
  });
  return {
    modelId: endpoint.modelId,
    doGenerate: async (request) => {
      requireModelConfigured(settings);
      return endpoint.doGenerate(request);
    },
  };
}
