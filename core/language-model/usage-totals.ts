import type { TokenUsage } from '../ports/language-model.ts';

/** Running totals for one session, per model; what `srag_usage()` and the CLI summary show. */
export interface ModelUsage {
  model: string;
  calls: number;
  cacheHits: number;
  retries: number;
  promptTokens: number;
  /** Of `promptTokens`, served from the endpoint's prompt cache (0 when it does not say). */
  cachedPromptTokens: number;
  completionTokens: number;
  /** Of `completionTokens`, spent reasoning (0 when the endpoint does not say). */
  reasoningTokens: number;
  /** Calls whose reply reported no usage: their tokens are estimated from the texts. */
  callsWithoutUsage: number;
}

export class UsageTotals {
  private readonly byModel = new Map<string, ModelUsage>();

  private entry(model: string): ModelUsage {
    let usage = this.byModel.get(model);
    if (!usage) {
      usage = { model, calls: 0, cacheHits: 0, retries: 0, promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0, reasoningTokens: 0, callsWithoutUsage: 0 };
      this.byModel.set(model, usage);
    }
    return usage;
  }

  recordCall(model: string, usage: TokenUsage, { usageMissing = false }: { usageMissing?: boolean } = {}): void {
    const entry = this.entry(model);
    entry.calls += 1;
    entry.promptTokens += usage.promptTokens;
    entry.cachedPromptTokens += usage.cachedPromptTokens ?? 0;
    entry.completionTokens += usage.completionTokens;
    entry.reasoningTokens += usage.reasoningTokens ?? 0;
    if (usageMissing) entry.callsWithoutUsage += 1;
  }

  recordCacheHit(model: string): void {
    this.entry(model).cacheHits += 1;
  }

  recordRetry(model: string): void {
    this.entry(model).retries += 1;
  }

  models(): ModelUsage[] {
    return [...this.byModel.values()].map((usage) => ({ ...usage }));
  }

  /** Adds another tally of `usage.model` (another client's, one retired): its counts join this model's. */
  add(usage: ModelUsage): void {
    addCounts(this.entry(usage.model), usage);
  }

  total(): Omit<ModelUsage, 'model'> {
    const sum = { calls: 0, cacheHits: 0, retries: 0, promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0, reasoningTokens: 0, callsWithoutUsage: 0 };
    for (const usage of this.byModel.values()) addCounts(sum, usage);
    return sum;
  }
}

function addCounts(into: Omit<ModelUsage, 'model'>, from: Omit<ModelUsage, 'model'>): void {
  into.calls += from.calls;
  into.cacheHits += from.cacheHits;
  into.retries += from.retries;
  into.promptTokens += from.promptTokens;
  into.cachedPromptTokens += from.cachedPromptTokens;
  into.completionTokens += from.completionTokens;
  into.reasoningTokens += from.reasoningTokens;
  into.callsWithoutUsage += from.callsWithoutUsage;
}
