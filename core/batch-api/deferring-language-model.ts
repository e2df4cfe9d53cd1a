import type { BatchRequest } from '../ports/batch-api.ts';
import type { LanguageModel, LanguageModelRequest, LanguageModelResponse } from '../ports/language-model.ts';
import { BatchDeferral } from './batch-deferral.ts';

export interface DeferringLanguageModelOptions {
  /** The endpoint, for the requests that are not deferred. */
  languageModel: LanguageModel;
  /** The model client's cache key of a request (`ModelClient.cacheKey`): the batch line's id. */
  keyOf: (request: LanguageModelRequest) => string;
  /** Whether a request goes to the Batch API (default: all); the others go to `languageModel` at once. */
  defer?: (key: string) => boolean;
}

/**
 * A language model that collects requests for the Batch API instead of sending them. The model
 * client calls it only for what its cache cannot answer, so a run with it sends exactly the
 * requests a normal run would send first — built by the one extraction run, not a copy of it —
 * and each one throws a `BatchDeferral`. Replies of a finished batch are put in the cache under
 * the same keys, so the next run reads them through the ordinary validation and evidence checks;
 * what they lead to (a re-ask, the halves of a batch whose ids did not match, a document's next
 * part) is collected in turn.
 */
export class DeferringLanguageModel implements LanguageModel {
  readonly modelId: string;
  /** The endpoint's, so that replies collected from a batch have the keys the ordinary run looks for. */
  readonly endpoint: string | undefined;
  private readonly collected = new Map<string, BatchRequest>();

  constructor(private readonly options: DeferringLanguageModelOptions) {
    this.modelId = options.languageModel.modelId;
    this.endpoint = options.languageModel.endpoint;
  }

  /** The requests collected since the last `take`, once each (two documents with the same text share a line); collecting starts anew. */
  take(): BatchRequest[] {
    const requests = [...this.collected.values()];
    this.collected.clear();
    return requests;
  }

  async doGenerate(request: LanguageModelRequest): Promise<LanguageModelResponse> {
    const key = this.options.keyOf(request);
    if (this.options.defer && !this.options.defer(key)) return this.options.languageModel.doGenerate(request);
    if (!this.collected.has(key)) {
      const { abortSignal: _signal, ...line } = request;
      this.collected.set(key, { customId: key, request: line });
    }
    throw new BatchDeferral();
  }
}
