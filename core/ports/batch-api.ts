import type { CancellationSignal } from './cancellation-signal.ts';
import type { LanguageModelRequest, LanguageModelResponse } from './language-model.ts';

/** One request of a batch: the model client's cache key as its id, so an answer lands where a rerun looks for it. */
export interface BatchRequest {
  customId: string;
  /** With `model` set, as the model client hands it to the language model. */
  request: LanguageModelRequest;
}

/**
 * A provider's batch as last seen. `finished` once it ends one way or another (completed,
 * expired, cancelled, failed): what it answered can then be read, and whatever it did not answer
 * has to be asked again.
 */
export interface BatchStatus {
  id: string;
  /**
   * The provider's word: `validating`, `in_progress`, `finalizing`, `completed`, `expired`, … —
   * or `unknown` (finished, nothing to read) when the endpoint does not know the batch.
   */
  status: string;
  finished: boolean;
  total: number;
  completed: number;
  failed: number;
  /** Why the whole batch failed (validation errors), when it did. */
  errors: string[];
}

/** One line of a finished batch: the reply, or why there is none. */
export type BatchLineResult =
  | { customId: string; response: LanguageModelResponse }
  | { customId: string; error: string };

/**
 * The Batch API port: many requests sent as one job, answered within a day at a lower price
 * (OpenAI's `/v1/files` + `/v1/batches`). openai-wire's OpenAiBatchApi implements it.
 */
export interface BatchApi {
  /** Most requests one batch takes (a submission of more is split). */
  readonly maxRequestsPerBatch: number;
  /** Most bytes of request lines one batch takes. */
  readonly maxBytesPerBatch: number;
  /** Uploads the requests and creates the batch; resolves with its id. */
  submit(requests: readonly BatchRequest[], signal?: CancellationSignal): Promise<string>;
  retrieve(id: string, signal?: CancellationSignal): Promise<BatchStatus>;
  /** The answered and the failed lines of a finished batch (from its output and error files). */
  results(id: string, signal?: CancellationSignal): Promise<BatchLineResult[]>;
}
