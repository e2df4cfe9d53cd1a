import { setTimeout as wait } from 'node:timers/promises';
import { ModelClient, type PromptLibrary } from '../../core/index.ts';
import { DuckDbSqlEngine } from './duckdb-sql-engine.ts';
import { loadPromptLibrary } from './load-prompt-library.ts';
import { OpenAiLanguageModel } from './openai-language-model.ts';
import { readSettings, requireModelConfigured, type SragSettings } from './read-settings.ts';
import { SragStore } from './store/srag-store.ts';

export interface Session {
  settings: SragSettings;
  store: SragStore;
  prompts: PromptLibrary;
  sqlEngine: DuckDbSqlEngine;
  /** The o200k token counter, imported on first use: loading its tables takes ~0.4 s. */
  loadTokenCounter(): Promise<(text: string) => number>;
  /** Created on first use, so `srag sql` and `srag stats` work without a model configured. */
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
      requireModelConfigured(settings);
      client = new ModelClient({
        languageModel: new OpenAiLanguageModel({ apiKey: settings.apiKey, baseURL: settings.baseURL, model: settings.model, timeoutMilliseconds: settings.requestTimeoutMilliseconds }),
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
