import { OpenAiWire, type EndpointHints } from '../../openai-wire/index.ts';
import { createNodeHttpTransport } from './node-http-transport.ts';

/** OpenAI's own API, when OPENAI_BASE_URL names no other. */
export const defaultBaseUrl = 'https://api.openai.com/v1';

/** Fixes in the words of the CLI's and the SQL functions' settings: environment variables. */
const environmentHints: EndpointHints = {
  refusedKey: 'the endpoint refused the API key: check OPENAI_API_KEY',
  unknownModel: (model) => `the endpoint does not know model "${model}": set SRAG_MODEL (and SRAG_EXTRACT_MODEL) to a model it serves`,
  unreachable: 'check OPENAI_BASE_URL and that the server is running',
  tooLarge: 'a reply that long is a model writing without end; if your replies really are that long, raise SRAG_MAX_REPLY_BYTES',
};

export interface OpenAiWireSettings {
  /** Read late; never logged, stored or put in an error message. */
  apiKey?: string;
  baseURL?: string;
  /** Per request, first byte to last; a hung request becomes a retryable timeout. */
  timeoutMilliseconds: number;
  /** The most bytes read of one reply (SRAG_MAX_REPLY_BYTES); the transport's default when absent. */
  maxReplyBytes?: number;
}

/** The OpenAI-compatible wire under Node: node:http and node:https as its transport. */
export function createOpenAiWire({ apiKey, baseURL, timeoutMilliseconds, maxReplyBytes }: OpenAiWireSettings): OpenAiWire {
  return new OpenAiWire({
    endpoint: { baseUrl: baseURL ?? defaultBaseUrl, apiKey, hints: environmentHints },
    transport: createNodeHttpTransport({ timeoutMilliseconds, maxReplyBytes }),
  });
}
