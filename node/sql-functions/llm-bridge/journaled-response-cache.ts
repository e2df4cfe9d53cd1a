import type { CachedResponse, ResponseCache } from '../../../core/index.ts';
import type { JournalChannel } from './journal-channel.ts';

/**
 * The response cache as the bridge sees it. The bridge cannot query DuckDB (the database belongs
 * to the thread that is blocked waiting for it), so reads come from a copy and every new reply is
 * journaled through the store. Questions' replies are copied when the database opens; extraction
 * replies are not (an unchanged document's row comes from its record, not from its reply), so
 * that copy holds only this session's latest `capacity` of them.
 */
export class JournaledResponseCache implements ResponseCache {
  private readonly entries = new Map<string, CachedResponse>();
  /** The same replies by request key, for a session with no endpoint configured (see `ResponseCache.findForAnyEndpoint`). */
  private readonly byRequest = new Map<string, CachedResponse>();

  constructor(
    private readonly journal: JournalChannel,
    private readonly purpose: 'extraction' | null,
    private readonly capacity = Number.POSITIVE_INFINITY,
  ) {}

  load(entries: Array<[string, CachedResponse]>): void {
    for (const [key, response] of entries) this.remember(key, response);
  }

  async get(key: string): Promise<CachedResponse | undefined> {
    return this.entries.get(key);
  }

  async findForAnyEndpoint(requestKey: string): Promise<CachedResponse | undefined> {
    return this.byRequest.get(requestKey);
  }

  /**
   * Journals the reply without waiting for it to be durable: the record the reply becomes is
   * written after it in the same journal and is waited for, and a refused write refuses every later
   * one — so the extraction's slot goes on to its next call one round trip sooner.
   */
  async set(key: string, response: CachedResponse): Promise<void> {
    if (this.entries.has(key)) return;
    this.journal.write([{ kind: 'cache', key, response, purpose: this.purpose }]).catch(() => undefined);
    this.remember(key, response);
  }

  private remember(key: string, response: CachedResponse): void {
    this.entries.set(key, response);
    if (response.requestKey) this.byRequest.set(response.requestKey, response);
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value!;
      const evicted = this.entries.get(oldest)!;
      this.entries.delete(oldest);
      if (evicted.requestKey && this.byRequest.get(evicted.requestKey) === evicted) this.byRequest.delete(evicted.requestKey);
    }
  }
}
