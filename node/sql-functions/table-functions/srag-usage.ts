import { BIGINT, DuckDBTableFunction, VARCHAR } from '../../duckdb/duckdb-node-api.ts';
import type { ModelUsage } from '../../../core/index.ts';
import type { LlmBridge } from '../llm-bridge/llm-bridge.ts';
import { renderSqlError } from './render-sql-error.ts';

const columns = [
  ['model', VARCHAR], ['calls', BIGINT], ['cache_hits', BIGINT], ['retries', BIGINT], ['prompt_tokens', BIGINT], ['completion_tokens', BIGINT],
  ['cached_prompt_tokens', BIGINT],
] as const;

/**
 * `srag_usage()`: per model, the calls, cache hits, retries and tokens (with the prompt tokens the
 * endpoint served from its prompt cache) of this session's srag
 * functions (the core `ModelClient` totals kept on the bridge). Empty before any srag function ran.
 */
export function createSragUsageFunction(bridge: LlmBridge): DuckDBTableFunction {
  return DuckDBTableFunction.create({
    name: 'srag_usage',
    bindFunction(info) {
      for (const [name, type] of columns) info.addResultColumn(name, type);
    },
    initFunction(info) {
      try {
        const usage: ModelUsage[] = bridge.started ? bridge.callSync({ type: 'usage' }) : [];
        info.setInitData({ usage, done: false });
      } catch (error) {
        info.setError(renderSqlError('srag_usage', error));
      }
    },
    mainFunction(info, output) {
      const state = info.getInitData() as { usage: ModelUsage[]; done: boolean };
      if (state.done) {
        output.rowCount = 0;
        return;
      }
      state.done = true;
      output.rowCount = state.usage.length;
      if (state.usage.length === 0) return;
      output.setColumns([
        state.usage.map((usage) => usage.model),
        state.usage.map((usage) => BigInt(usage.calls)),
        state.usage.map((usage) => BigInt(usage.cacheHits)),
        state.usage.map((usage) => BigInt(usage.retries)),
        state.usage.map((usage) => BigInt(usage.promptTokens)),
        state.usage.map((usage) => BigInt(usage.completionTokens)),
        state.usage.map((usage) => BigInt(usage.cachedPromptTokens)),
      ]);
    },
  });
}
