import { setTimeout as wait } from 'node:timers/promises';
import { ModelClient, type LanguageModel, type PromptLibrary, type ResponseCache } from '../../core/index.ts';
import { DuckDbSqlEngine } from './duckdb-sql-engine.ts';
import { endpointLanguageModel } from './endpoint-language-model.ts';
import { hashText } from './hash-text.ts';
import { loadPromptLibrary } from './load-prompt-library.ts';
import { readSettings, type SragSettings } from './read-settings.ts';
import { SragStore } from './store/srag-store.ts';

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
  close(): void;
}

export interface OpenSessionOptions {
  abortSignal?: AbortSignal;
  environment?: Record<string, string | undefined>;
  /** Refuse a database that does not exist instead of creating it (commands that only read it). */
  mustExist?: boolean;
}

/** Everything a command needs: the store at `databasePath`, settings, prompts, and a model client on demand. */
export async function openSession(databasePath: string, { abortSignal, environment, mustExist }: OpenSessionOptions = {}): Promise<Session> {
  const settings = readSettings(environment);
  const store = await SragStore.open(databasePath, { mustExist });
  const clients = new Map<ResponseCache, ModelClient>();
  const defaultCache = store.responseCache();
  return {
    settings,
    store,
    prompts: loadPromptLibrary(),
    sqlEngine: new DuckDbSqlEngine(store.connection),
    loadTokenCounter: async () => (await import('./count-tokens.ts')).countTokens,
    modelClient({ cache = defaultCache, languageModel } = {}) {
      let client = languageModel ? undefined : clients.get(cache);
      if (client) return client;
      const endpoint = endpointLanguageModel(settings);
      client = new ModelClient({
        languageModel: languageModel ? languageModel(endpoint) : endpoint,
        cache,
        maxConcurrency: settings.concurrency,
        retry: { maxRetries: settings.maxRetries },
        abortSignal,
        sleep: (milliseconds) => wait(milliseconds),
        hashText,
      });
      if (!languageModel) clients.set(cache, client);
      return client;
    },
    close: () => store.close(),
  };
}
