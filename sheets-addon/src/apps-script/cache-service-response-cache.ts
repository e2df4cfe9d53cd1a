import type { CachedResponse, ResponseCache } from '../../../core/index.ts';
import { dropOldestProperties } from './drop-oldest-properties.ts';
import { utf8ByteLength } from './utf8-byte-length.ts';

const prefix = 'srag.reply.';
/** Document properties that hold model replies; others (pinned SRAG_ASK queries) share the store. */
export const replyPropertyPrefix = prefix;
/** CacheService keeps an entry at most six hours and 100 KB (bytes), and 1,000 entries per cache. */
const cacheSeconds = 21_600;
const cacheValueBytes = 100 * 1024;
/** A property holds at most 9 KB (key and value, in bytes); a store 500 KB in all. */
const propertyBytes = 9 * 1024;

interface LongLivedEntry {
  savedAt: number;
  response: CachedResponse;
}

/**
 * Model replies cached by content (the model client's key: model + messages + output schema), so
 * recalculating a formula or resuming a batch spends no tokens. The API key is never part of a key
 * or a value.
 *
 * Two homes, because a cache holds 1,000 entries and drops the oldest when full:
 * - custom functions (`keepLonger`) use the document cache, where every editor's recalculation
 *   finds them, and copy replies small enough to the document properties, which outlive the
 *   cache's six hours (when that store is full, the oldest half of the replies is dropped);
 * - a batch or a schema prediction uses the running user's cache. A batch needs a reply only
 *   until its record is in the Records sheet (or to resume a killed chunk, minutes later); in the
 *   document cache a 1,000-document batch would push out every reply the formulas rely on.
 */
export function createResponseCache({ keepLonger }: { keepLonger: boolean }): ResponseCache {
  const cache = keepLonger ? CacheService.getDocumentCache() ?? CacheService.getScriptCache() : CacheService.getUserCache();
  const properties = keepLonger ? PropertiesService.getDocumentProperties() : undefined;
  return {
    async get(key) {
      const cached = cache.get(prefix + key);
      if (cached) return JSON.parse(cached) as CachedResponse;
      const kept = properties?.getProperty(prefix + key);
      if (!kept) return undefined;
      const entry = JSON.parse(kept) as LongLivedEntry;
      putInCache(cache, key, JSON.stringify(entry.response));
      return entry.response;
    },
    async set(key, response) {
      const text = JSON.stringify(response);
      putInCache(cache, key, text);
      if (!properties) return;
      const entry = JSON.stringify({ savedAt: Date.now(), response } satisfies LongLivedEntry);
      if (utf8ByteLength(prefix + key) + utf8ByteLength(entry) > propertyBytes) return;
      try {
        properties.setProperty(prefix + key, entry);
      } catch {
        dropOldestProperties(properties, prefix);
        try {
          properties.setProperty(prefix + key, entry);
        } catch {
          // Still no room: the six-hour cache has the reply.
        }
      }
    },
  };
}

function putInCache(cache: GoogleAppsScript.Cache.Cache, key: string, text: string): void {
  if (utf8ByteLength(text) > cacheValueBytes) return;
  try {
    cache.put(prefix + key, text, cacheSeconds);
  } catch {
    // The cache is a convenience; a refused put only costs tokens later.
  }
}
