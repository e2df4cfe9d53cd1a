import { setTimeout as wait } from 'node:timers/promises';
import { ModelClient, type PromptLibrary } from '../../core/index.ts';
import { DuckDbSqlEngine } from './duckdb-sql-engine.ts';
import { endpointLanguageModel } from './endpoint-language-model.ts';
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
   * only a call the cache cannot answer fails, with the missing-endpoint error.
   */
  modelClient(): ModelClient;
  close(): void;
}

/** Everything a command needs: the store at `databasePath`, settings, prompts, and a model client on demand. */
export async function openSession(databasePath: string, { abortSignal, environment }: { abortSignal?: AbortSignal; environment?: Record<string, string | undefined> } = {}): Promise<Session> {
  const settings = readSettings(environment);
  const store = await SragStore.open(databasePath);
  let client: ModelClient | undefined;
  return {
    settings,
    store,
    prompts: loadPromptLibrary(),
    sqlEngine: new DuckDbSqlEngine(store.connection),
    loadTokenCounter: async () => (await import('./count-tokens.ts')).countTokens,
    modelClient() {
      if (client) return client;
      client = new ModelClient({
        languageModel: endpointLanguageModel(settings),
        cache: store.responseCache(),
        maxConcurrency: settings.concurrency,
        retry: { maxRetries: settings.maxRetries },
        abortSignal,
        sleep: (milliseconds) => wait(milliseconds),
      });
      return client;
    },
    close: () => store.close(),
  };
}
