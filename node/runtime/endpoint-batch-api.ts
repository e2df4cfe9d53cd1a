import type { BatchApi } from '../../core/index.ts';
import { OpenAiBatchApi, type ParameterAdaptations } from '../../openai-wire/index.ts';
import { createOpenAiWire } from './create-openai-wire.ts';
import { requireModelConfigured, type SragSettings } from './read-settings.ts';

/** Uploads and downloads of batch files may be large: they get at least this long per request. */
const fileTransferMilliseconds = 600_000;
/**
 * The most bytes read of one reply of the Batch API: an output file holds a reply per request of a
 * batch (an input file may be up to 200 MB: https://learn.microsoft.com/en-us/azure/foundry/reference/rest/batches-create-batch,
 * OpenAI's wording), so its bound is the file's, not one reply's.
 */
const batchFileBytes = 512 * 1024 * 1024;

/**
 * The configured endpoint's Batch API, over the same wire as its chat model (same key, URL,
 * redaction, and what the endpoint was found to refuse: `adaptations`, the session's).
 */
export function endpointBatchApi(settings: SragSettings, adaptations?: ParameterAdaptations): BatchApi {
  requireModelConfigured(settings);
  return new OpenAiBatchApi(createOpenAiWire({
    apiKey: settings.apiKey, baseURL: settings.baseURL, keyHeader: settings.keyHeader, timeoutMilliseconds: Math.max(settings.requestTimeoutMilliseconds, fileTransferMilliseconds),
    maxReplyBytes: Math.max(settings.maxReplyBytes, batchFileBytes),
    adaptations, requestSettings: { reasoningEffort: settings.reasoningEffort, maxOutputTokens: settings.maxOutputTokens },
  }), settings.maxReplyBytes);
}
