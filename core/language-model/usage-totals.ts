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

  total(): Omit<ModelUsage, 'model'> {
    const sum = { calls: 0, cacheHits: 0, retries: 0, promptTokens: 0, cachedPromptTokens: 0, completionTokens: 0, reasoningTokens: 0, callsWithoutUsage: 0 };
    for (const usage of this.byModel.values()) {
      sum.calls += usage.calls;
      sum.cacheHits += usage.cacheHits;
      sum.retries += usage.retries;
      sum.promptTokens += usage.promptTokens;
      sum.cachedPromptTokens += usage.cachedPromptTokens;
      sum.completionTokens += usage.completionTokens;
      sum.reasoningTokens += usage.reasoningTokens;
      sum.callsWithoutUsage += usage.callsWithoutUsage;
    }
    return sum;
  }
}
