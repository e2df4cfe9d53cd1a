import { SragError } from '../../core/index.ts';
import { defaultMaxReplyBytes } from '../../openai-wire/index.ts';
import { readDocumentReadingLimits, type DocumentReadingLimits } from './documents/document-reading-limits.ts';
import { positiveIntegerSetting } from './positive-integer-setting.ts';
import { isAzureOpenAiHost } from '../../openai-wire/azure-openai-host.ts';
import { endpointIdentity } from '../../openai-wire/endpoint-identity.ts';

/** OpenAI's own API, when no base URL is set. */
export const defaultBaseUrl = 'https://api.openai.com/v1';
/** The values OpenAI's `reasoning_effort` takes across its reasoning models (`none` and `xhigh` on the newer ones). */
export const reasoningEfforts = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh'] as const;

export interface SragSettings {
  apiKey: string | undefined;
  baseURL: string | undefined;
  /**
   * How the key is sent: `api-key` for Azure OpenAI (a base URL on `*.openai.azure.com`,
   * `*.cognitiveservices.azure.com` or `*.services.ai.azure.com`, or a key from
   * AZURE_OPENAI_API_KEY), else `Authorization: Bearer`.
   */
  keyHeader: 'authorization' | 'api-key';
  /**
   * The configured endpoint as a reply's origin (base URL without credentials or query), part of
   * every cache key; undefined when none is configured (no key, no base URL).
   */
  endpoint: string | undefined;
  /** SRAG_REASONING_EFFORT: sent as `reasoning_effort` to models that take it. */
  reasoningEffort: string | undefined;
  /** SRAG_MAX_OUTPUT_TOKENS: an output limit per request, as the model names it; none by default. */
  maxOutputTokens: number | undefined;
  model: string;
  extractModel: string;
  concurrency: number;
  maxInputTokens: number;
  requestTimeoutMilliseconds: number;
  maxRetries: number;
  /** Warn before a document that needs more model calls than this. */
  callWarningThreshold: number;
  /** Ask before a back-fill of `srag ask --extend-schema` over more documents than this (SRAG_CONFIRM_DOCUMENTS). */
  confirmDocuments: number;
  /** The most bytes read of one reply of the endpoint (SRAG_MAX_REPLY_BYTES, default 8 MiB); a longer one fails its call. */
  maxReplyBytes: number;
  /** Pages and time one document may take to read (SRAG_MAX_PAGES, SRAG_READ_TIMEOUT_MS). */
  documentReading: DocumentReadingLimits;
  /** SRAG_PRICES: the JSON file of model prices laid over the built-in list (see `loadModelPrices`). */
  pricesFile: string | undefined;
}

export const defaultModel = 'gpt-4o-mini';

/**
 * Settings from the environment, read when a command needs the model (never at import time).
 * OPENAI_API_KEY and OPENAI_BASE_URL mean what they mean to the openai SDK (see create-openai-wire.ts);
 * so do AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT to its AzureOpenAI client: the key sent in
 * the `api-key` header, the resource's v1 API (`<endpoint>/openai/v1`) the base URL when
 * OPENAI_BASE_URL names none.
 */
export function readSettings(environment: Record<string, string | undefined> = process.env): SragSettings {
  const azureEndpoint = environment.AZURE_OPENAI_ENDPOINT?.trim() || undefined;
  const baseURL = environment.OPENAI_BASE_URL || (azureEndpoint ? `${azureEndpoint.replace(/\/+$/, '')}/openai/v1` : undefined);
  const apiKey = environment.OPENAI_API_KEY || environment.AZURE_OPENAI_API_KEY || undefined;
  const fromAzure = !environment.OPENAI_API_KEY && Boolean(environment.AZURE_OPENAI_API_KEY);
  return {
    apiKey,
    baseURL,
    keyHeader: fromAzure || (baseURL !== undefined && isAzureOpenAiHost(baseURL)) ? 'api-key' : 'authorization',
    endpoint: apiKey || baseURL ? endpointIdentity(baseURL ?? defaultBaseUrl) : undefined,
    reasoningEffort: oneOf(environment, 'SRAG_REASONING_EFFORT', reasoningEfforts),
    maxOutputTokens: optionalPositiveInteger(environment, 'SRAG_MAX_OUTPUT_TOKENS'),
    model: environment.SRAG_MODEL || defaultModel,
    extractModel: environment.SRAG_EXTRACT_MODEL || environment.SRAG_MODEL || defaultModel,
    concurrency: positiveIntegerSetting(environment, 'SRAG_CONCURRENCY', 8),
    maxInputTokens: positiveIntegerSetting(environment, 'SRAG_MAX_INPUT_TOKENS', 24_000),
    requestTimeoutMilliseconds: positiveIntegerSetting(environment, 'SRAG_REQUEST_TIMEOUT_MS', 120_000),
    maxRetries: positiveIntegerSetting(environment, 'SRAG_MAX_RETRIES', 6, true),
    callWarningThreshold: positiveIntegerSetting(environment, 'SRAG_WARN_CALLS_PER_DOCUMENT', 20),
    confirmDocuments: positiveIntegerSetting(environment, 'SRAG_CONFIRM_DOCUMENTS', 200, true),
    maxReplyBytes: positiveIntegerSetting(environment, 'SRAG_MAX_REPLY_BYTES', defaultMaxReplyBytes),
    documentReading: readDocumentReadingLimits(environment),
    pricesFile: environment.SRAG_PRICES || undefined,
  };
}

/**
 * What must never be shown of the settings: the key, and whatever the base URL carries
 * (credentials, query values; `redactSecrets` keeps its address).
 */
export function secretSettings(environment: Record<string, string | undefined> = process.env): Array<string | undefined> {
  return [environment.OPENAI_API_KEY, environment.OPENAI_BASE_URL, environment.AZURE_OPENAI_API_KEY, environment.AZURE_OPENAI_ENDPOINT];
}

/** Throws the one-line "no LLM configured" error naming every way to configure one; called when a model call is due. */
export function requireModelConfigured(settings: SragSettings): void {
  if (settings.apiKey || settings.baseURL) return;
  throw new SragError({
    code: 'LLM_NOT_CONFIGURED',
    message: 'no LLM endpoint is configured',
    hint: 'set OPENAI_API_KEY for OpenAI, AZURE_OPENAI_API_KEY and AZURE_OPENAI_ENDPOINT for Azure OpenAI, or OPENAI_BASE_URL for another endpoint (Ollama: http://localhost:11434/v1, vLLM: http://localhost:8000/v1, LM Studio: http://localhost:1234/v1), and SRAG_MODEL for the model name; only replies already in the response cache need none',
  });
}

function oneOf<T extends string>(environment: Record<string, string | undefined>, name: string, values: readonly T[]): T | undefined {
  const raw = environment[name]?.trim().toLowerCase();
  if (!raw) return undefined;
  if ((values as readonly string[]).includes(raw)) return raw as T;
  throw new SragError({ code: 'INPUT_INVALID', message: `${name}=${JSON.stringify(environment[name])} is not one of ${values.join(', ')}`, hint: `set it to one of them, or unset it to send none` });
}

function optionalPositiveInteger(environment: Record<string, string | undefined>, name: string): number | undefined {
  const raw = environment[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (Number.isInteger(value) && value >= 1) return value;
  throw new SragError({ code: 'INPUT_INVALID', message: `${name}=${JSON.stringify(raw)} is not a positive whole number`, hint: 'set it to a number of tokens, or unset it to send no limit' });
}
