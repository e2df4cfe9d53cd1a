/** How a user fixes what only they can fix, in the words of the runtime's settings. */
export interface EndpointHints {
  /** For a 401 or 403, e.g. `the endpoint refused the API key: check OPENAI_API_KEY`. */
  refusedKey: string;
  /** For a 404, e.g. `… set SRAG_MODEL to a model it serves`. */
  unknownModel: (model: string) => string;
  /** For an address where nothing answers, e.g. `check OPENAI_BASE_URL and that the server is running`. */
  unreachable: string;
  /** Set where this runtime offers no Batch API: the error asking for it gets this message. */
  noBatchApi?: string;
  /** For a reply longer than the transport reads, where a setting raises the bound, e.g. `… SRAG_MAX_REPLY_BYTES …`. */
  tooLarge?: string;
  /**
   * For a request error that may be a setting's (a 400 naming no document's content), e.g. `check
   * SRAG_MODEL, SRAG_REASONING_EFFORT and OPENAI_BASE_URL`.
   */
  refusedRequest?: string;
  /** For a reply cut at its output limit after reasoning, e.g. `set SRAG_REASONING_EFFORT=low or raise SRAG_MAX_OUTPUT_TOKENS`. */
  reasoningSpentBudget?: string;
  /** For a reply cut at its output limit, e.g. `raise SRAG_MAX_OUTPUT_TOKENS`. */
  outputLimit?: string;
}

/** Where the OpenAI-compatible API is, who calls it, and how a user fixes a refusal. */
export interface OpenAiEndpoint {
  /**
   * The base URL including `/v1`, e.g. `https://api.openai.com/v1` or `http://localhost:11434/v1`
   * (Ollama). Credentials or a query in it (`…/v1?api-key=…`) are sent and never shown.
   */
  baseUrl: string;
  /** Read late, sent only in the Authorization header (or `api-key`, see `keyHeader`); local servers need none. */
  apiKey?: string;
  /**
   * How the key is sent: `authorization` (`Authorization: Bearer …`, the default) or `api-key`
   * (`api-key: …`, Azure OpenAI's header for a resource key, as the openai SDK's AzureOpenAI sends it).
   */
  keyHeader?: 'authorization' | 'api-key';
  hints: EndpointHints;
}

/** `baseUrl` + `/path`, keeping the base URL's query (`…/v1?api-version=1` → `…/v1/chat/completions?api-version=1`). */
export function endpointUrl(baseUrl: string, path: string): string {
  const queryStart = baseUrl.search(/[?#]/);
  const address = queryStart < 0 ? baseUrl : baseUrl.slice(0, queryStart);
  const query = queryStart < 0 ? '' : baseUrl.slice(queryStart);
  return `${address.replace(/\/+$/, '')}/${path}${query}`;
}
