import { setTimeout as wait } from 'node:timers/promises';
import { ModelClient, type LanguageModel, type PromptLibrary, type ResponseCache } from '../../core/index.ts';
import { ParameterAdaptations, type LearnedAdaptation } from '../../openai-wire/index.ts';
import { DuckDbSqlEngine } from '../duckdb/duckdb-sql-engine.ts';
import { endpointLanguageModel } from '../runtime/endpoint-language-model.ts';
import { hashText, hashTexts } from '../runtime/hash-text.ts';
import { loadPromptLibrary } from '../runtime/load-prompt-library.ts';
import { readSettings, type SragSettings } from '../runtime/read-settings.ts';
import { SragStore } from '../duckdb/store/srag-store.ts';

export interface Session {
  settings: SragSettings;
  store: SragStore;
  prompts: PromptLibrary;
  sqlEngine: DuckDbSqlEngine;
  /** The o200k token counter, imported on first use: loading its tables takes ~0.4 s. */
  loadTokenCounter(): Promise<(text: string) => number>;
  /**
   * Created on first use. Without an endpoint configured it still answers from the response cache;
   * only a call the cache cannot answer fails, with the missing-endpoint error. With a `cache` (an
   * extraction store's), a client of its own that keeps replies there. With `languageModel`, a new
   * client over what it makes of the endpoint (the Batch API's deferring model).
   */
  modelClient(options?: { cache?: ResponseCache; languageModel?: (endpoint: LanguageModel) => LanguageModel }): ModelClient;
  /**
   * What the configured endpoint's models were found to refuse, loaded from the store and kept
   * there as more is learned (each new one said on stderr): the chat model and the Batch API share it.
   */
  adaptations: ParameterAdaptations;
  close(): void;
}

export interface OpenSessionOptions {
  abortSignal?: AbortSignal;
  environment?: Record<string, string | undefined>;
  /** Refuse a database that does not exist instead of creating it (commands that only read it). */
  mustExist?: boolean;
  /** The store is opened for `srag ingest`'s writes (its row groups: see `ingestRowGroupRows`). */
  forIngest?: boolean;
}

/** Everything a command needs: the store at `databasePath`, settings, prompts, and a model client on demand. */
export async function openSession(databasePath: string, { abortSignal, environment, mustExist, forIngest }: OpenSessionOptions = {}): Promise<Session> {
  const settings = readSettings(environment);
  const store = await SragStore.open(databasePath, { mustExist, forIngest });
  const clients = new Map<ResponseCache, ModelClient>();
  const defaultCache = store.responseCache();
  const endpoint = settings.endpoint;
  const adaptations = new ParameterAdaptations(endpoint ? await store.parameterAdaptations(endpoint) : {}, (model, adaptation, learned) => {
    process.stderr.write(`note: ${endpoint} ${describeLearned(learned)} for model ${model}; srag asks it so from now on (kept in ${databasePath})\n`);
    // A lost write costs one refused request next time; it never fails the request that taught it.
    if (endpoint) void store.saveParameterAdaptation(endpoint, model, adaptation).catch(() => undefined);
  });
  return {
    settings,
    store,
    adaptations,
    prompts: loadPromptLibrary(),
    sqlEngine: new DuckDbSqlEngine(store.connection),
    loadTokenCounter: async () => (await import('../runtime/count-tokens.ts')).countTokens,
    modelClient({ cache = defaultCache, languageModel } = {}) {
      let client = languageModel ? undefined : clients.get(cache);
      if (client) return client;
      const endpointModel = endpointLanguageModel(settings, adaptations);
      client = new ModelClient({
        languageModel: languageModel ? languageModel(endpointModel) : endpointModel,
        cache,
        maxConcurrency: settings.concurrency,
        retry: { maxRetries: settings.maxRetries },
        abortSignal,
        sleep: (milliseconds) => wait(milliseconds),
        hashText,
        hashTexts,
      });
      if (!languageModel) clients.set(cache, client);
      return client;
    },
    close: () => store.close(),
  };
}

function describeLearned(learned: LearnedAdaptation): string {
  switch (learned.kind) {
    case 'dropped':
      return `refused the parameter ${learned.parameter}: srag no longer sends it`;
    case 'renamed':
      return `refused ${learned.parameter} and asked for ${learned.replacement}: srag sends that instead`;
    case 'output-mode':
      return `refused srag's structured-output request: srag asks for ${learned.outputMode === 'none' ? 'JSON in plain text' : learned.outputMode}`;
  }
}
