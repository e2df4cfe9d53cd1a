import { OpenAiWire, type ChatRequestSettings, type EndpointHints, type ParameterAdaptations } from '../../openai-wire/index.ts';
import { createNodeHttpTransport } from './node-http-transport.ts';
import { defaultBaseUrl } from './read-settings.ts';

export { defaultBaseUrl };

/** Fixes in the words of the CLI's and the SQL functions' settings: environment variables. */
const environmentHints: EndpointHints = {
  refusedKey: 'the endpoint refused the API key: check OPENAI_API_KEY (AZURE_OPENAI_API_KEY for Azure OpenAI)',
  unknownModel: (model) => `the endpoint does not know model "${model}": set SRAG_MODEL (and SRAG_EXTRACT_MODEL) to a model it serves (for Azure OpenAI, the deployment's name)`,
  unreachable: 'check OPENAI_BASE_URL and that the server is running',
  tooLarge: 'a reply that long is a model writing without end; if your replies really are that long, raise SRAG_MAX_REPLY_BYTES',
  refusedRequest: 'check what the endpoint names: SRAG_MODEL and SRAG_EXTRACT_MODEL, SRAG_REASONING_EFFORT, SRAG_MAX_OUTPUT_TOKENS, OPENAI_BASE_URL',
  reasoningSpentBudget: 'reasoning spent the output budget: set SRAG_REASONING_EFFORT lower (low or minimal), or raise SRAG_MAX_OUTPUT_TOKENS if set; for extraction, --batch-size 1 asks for one record per call',
  outputLimit: 'raise SRAG_MAX_OUTPUT_TOKENS if set, or ask for less per call (for extraction, --batch-size 1)',
};

export interface OpenAiWireSettings {
  /** Read late; never logged, stored or put in an error message. */
  apiKey?: string;
  baseURL?: string;
  /** `api-key` for Azure OpenAI (see `SragSettings.keyHeader`). */
  keyHeader?: 'authorization' | 'api-key';
  /** Per request, first byte to last; a hung request becomes a retryable timeout. */
  timeoutMilliseconds: number;
  /** The most bytes read of one reply (SRAG_MAX_REPLY_BYTES); the transport's default when absent. */
  maxReplyBytes?: number;
  /** What the endpoint's models were found to refuse, shared with the store that keeps it. */
  adaptations?: ParameterAdaptations;
  /** Reasoning effort and output limit (SRAG_REASONING_EFFORT, SRAG_MAX_OUTPUT_TOKENS). */
  requestSettings?: ChatRequestSettings;
}

/** The OpenAI-compatible wire under Node: node:http and node:https as its transport. */
export function createOpenAiWire({ apiKey, baseURL, keyHeader, timeoutMilliseconds, maxReplyBytes, adaptations, requestSettings }: OpenAiWireSettings): OpenAiWire {
  return new OpenAiWire({
    endpoint: { baseUrl: baseURL ?? defaultBaseUrl, apiKey, keyHeader, hints: environmentHints },
    transport: createNodeHttpTransport({ timeoutMilliseconds, maxReplyBytes }),
    adaptations,
    requestSettings,
  });
}
