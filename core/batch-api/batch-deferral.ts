import { SragError } from '../errors/srag-error.ts';

/**
 * What a deferring language model throws instead of calling the endpoint: the request went into
 * the next Batch API submission. The extraction run stops that document's work there, saves
 * nothing for it, and gives it the outcome `deferred`; a later run finds the answer in the cache.
 */
export class BatchDeferral extends SragError {
  constructor() {
    super({ code: 'DEFERRED_TO_BATCH', message: 'the request waits for a Batch API reply' });
    this.name = 'BatchDeferral';
  }

  /** Narrower than `SragError.isInstance`: only errors of this class's code. */
  static override isInstance(error: unknown): error is BatchDeferral {
    return SragError.isInstance(error) && error.code === 'DEFERRED_TO_BATCH';
  }
}
