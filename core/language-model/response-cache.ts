import type { TokenUsage } from '../ports/language-model.ts';

export interface CachedResponse {
  text: string;
  model: string;
  usage: TokenUsage;
  /**
   * The endpoint that gave the reply (`LanguageModel.endpoint`); absent from entries an older srag
   * wrote and from test doubles' replies.
   */
  endpoint?: string;
  /**
   * The request's key without the endpoint (`ModelClient.requestKey`): what a session with no
   * endpoint configured looks a reply up by.
   */
  requestKey?: string;
}

/**
 * Where validated model replies are kept, keyed by `ModelClient.cacheKey`: a hash of endpoint +
 * model + messages + output schema. The DuckDB store keeps them in a table; the Sheets add-on in
 * CacheService.
 */
export interface ResponseCache {
  get(key: string): Promise<CachedResponse | undefined>;
  set(key: string, response: CachedResponse): Promise<void>;
  /**
   * Any endpoint's reply to the request whose `requestKey` this is, or the reply an older srag kept
   * under it (its keys were request keys): for a session with no endpoint configured, which makes
   * no call and so can be told no lie about whose reply it reads. A cache without it serves such a
   * session nothing.
   */
  findForAnyEndpoint?(requestKey: string): Promise<CachedResponse | undefined>;
}
