import { SragError } from '../errors/srag-error.ts';
import type { TokenUsage } from '../ports/language-model.ts';
import type { ModelPrice } from './model-prices.ts';
import { usageCost } from './usage-cost.ts';

const stops = new WeakSet<object>();

/**
 * A spending limit for one run (`srag ingest --max-cost`): before a group of documents is sent,
 * its estimated cost is reserved; a reservation that would take what is spent and reserved past
 * the limit is refused, and the run stops there, keeping what is saved. What is spent is what
 * the endpoint reported for every call so far (`spent`, the model client's totals: re-asks and
 * failed calls included, cached replies free); a group in flight counts with its reservation and
 * what it already spent, so the limit errs on the safe side.
 */
export class SpendBudget {
  private reserved = 0;

  constructor(readonly limitUsd: number, private readonly price: ModelPrice, private readonly spent: () => TokenUsage) {}

  /** US dollars spent so far. */
  get spentUsd(): number {
    return usageCost(this.spent(), this.price);
  }

  /** Reserves what `estimate` costs; undefined (nothing reserved) when it does not fit. */
  reserve(estimate: TokenUsage): number | undefined {
    const cost = usageCost(estimate, this.price);
    if (this.spentUsd + this.reserved + cost > this.limitUsd) return undefined;
    this.reserved += cost;
    return cost;
  }

  /** Gives a reservation back once its group's calls are over (their cost is then in `spent`). */
  release(reservation: number): void {
    this.reserved -= reservation;
  }

  /** The error that stops a run at the limit; `isStop` recognises it. */
  stopError(): SragError {
    const error = new SragError({
      code: 'QUOTA_EXCEEDED',
      message: `stopped before spending more than the budget of $${this.limitUsd} (spent $${this.spentUsd.toFixed(4)})`,
      hint: 'run the same command again to go on (finished documents are saved), with a higher budget if needed',
    });
    stops.add(error);
    return error;
  }

  static isStop(error: unknown): boolean {
    return typeof error === 'object' && error !== null && stops.has(error);
  }
}
