import { SragError } from '../../../core/index.ts';
import { allowedByUrlFetchAllowlist, urlFetchAllowlist } from './url-fetch-allowlist.ts';

const keys = { baseUrl: 'srag.baseUrl', model: 'srag.model', apiKey: 'srag.apiKey' } as const;

export const defaultBaseUrl = 'https://api.openai.com/v1';
export const defaultModel = 'gpt-4o-mini';

export interface ModelSettings {
  baseUrl: string;
  model: string;
  /** Only ever read to build a request; never returned to the sidebar, written to a cell or logged. */
  apiKey: string | undefined;
}

/** What the sidebar may see: whether a key is saved, never the key. */
export interface PublicSettings {
  baseUrl: string;
  model: string;
  apiKeySaved: boolean;
}

export interface SettingsInput {
  baseUrl?: string;
  model?: string;
  /** Empty or absent keeps the saved key; `clearApiKey` removes it. */
  apiKey?: string;
  clearApiKey?: boolean;
}

/**
 * Settings live in the user properties of whoever saves them. A custom function runs without the
 * user's authorization and sees the *spreadsheet owner's* user properties instead, so =SRAG_ASK
 * in a shared spreadsheet spends the owner's key, and works only once the owner saved one.
 */
export function readSettings(): ModelSettings {
  const properties = PropertiesService.getUserProperties();
  return {
    baseUrl: properties.getProperty(keys.baseUrl) || defaultBaseUrl,
    model: properties.getProperty(keys.model) || defaultModel,
    apiKey: properties.getProperty(keys.apiKey) || undefined,
  };
}

export function publicSettings(settings: ModelSettings = readSettings()): PublicSettings {
  return { baseUrl: settings.baseUrl, model: settings.model, apiKeySaved: Boolean(settings.apiKey) };
}

/** Settings with which a model can be called, or the one error that names every way to fix them. */
export function requireModelSettings(where: 'sidebar' | 'custom function'): ModelSettings {
  const settings = readSettings();
  if (settings.apiKey || settings.baseUrl !== defaultBaseUrl) return settings;
  throw new SragError({
    code: 'LLM_NOT_CONFIGURED',
    message: 'no model settings are saved',
    hint: where === 'custom function'
      ? 'the spreadsheet owner opens Extensions › srag › Settings and saves a base URL, model and API key (custom functions read the owner\'s settings)'
      : 'open Settings in this sidebar and save a base URL, a model and an API key (or the base URL of a server that needs no key)',
  });
}

export function saveSettings(input: SettingsInput): PublicSettings {
  const properties = PropertiesService.getUserProperties();
  const baseUrl = (input.baseUrl ?? '').trim() || defaultBaseUrl;
  if (!/^https?:\/\/[^\s/]+/i.test(baseUrl)) {
    throw new SragError({ code: 'INPUT_INVALID', message: 'the base URL must start with https://', hint: 'for example https://api.openai.com/v1' });
  }
  if (!allowedByUrlFetchAllowlist(`${baseUrl.replace(/\/+$/, '')}/`)) {
    throw new SragError({
      code: 'INPUT_INVALID',
      message: `this deployment of srag may call only ${urlFetchAllowlist.join(', ')} (its urlFetchWhitelist), not ${baseUrl}`,
      hint: 'use one of those, or ask whoever deployed srag to build it with npm run build:sheets -- --allow-url <your endpoint>',
    });
  }
  const model = (input.model ?? '').trim() || defaultModel;
  const values: Record<string, string> = { [keys.baseUrl]: baseUrl, [keys.model]: model };
  const apiKey = (input.apiKey ?? '').trim();
  if (apiKey) values[keys.apiKey] = apiKey;
  properties.setProperties(values);
  if (input.clearApiKey && !apiKey) properties.deleteProperty(keys.apiKey);
  return publicSettings();
}
