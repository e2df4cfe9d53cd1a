import { BatchDeferral } from './batch-deferral.ts';

/**
 * Lets a sequence of model calls go on past a call deferred to the Batch API (see
 * `DeferringLanguageModel`), so that every request of the sequence that does not depend on an
 * earlier reply joins the same submission, instead of one more submission — up to a day — each.
 * `throwIfDeferred` after the sequence ends the work as deferred. Any other error is thrown at
 * once, as without it; without a deferring model nothing changes.
 */
export class DeferralCollector {
  private deferral: BatchDeferral | undefined;

  /** The call's result, or undefined when its request was deferred. */
  async attempt<T>(call: Promise<T>): Promise<T | undefined> {
    try {
      return await call;
    } catch (error) {
      if (!BatchDeferral.isInstance(error)) throw error;
      this.deferral ??= error;
      return undefined;
    }
  }

  throwIfDeferred(): void {
    if (this.deferral) throw this.deferral;
  }
}
