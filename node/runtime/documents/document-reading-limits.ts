import { positiveIntegerSetting } from '../positive-integer-setting.ts';

/** What one document may cost to read; past any of them it fails alone, with the reason, and the run goes on. */
export interface DocumentReadingLimits {
  /** A PDF of more pages is refused before any page is read (SRAG_MAX_PAGES). */
  maxPages: number;
  /** A PDF or Word document still being read after this long is given up (SRAG_READ_TIMEOUT_MS). */
  readTimeoutMilliseconds: number;
}

const defaultDocumentReadingLimits: DocumentReadingLimits = { maxPages: 5_000, readTimeoutMilliseconds: 60_000 };

/**
 * The limits from the environment, read when a document is read (and by `readSettings`, so that a bad
 * value stops a run before its first document instead of failing each one): SRAG_MAX_PAGES and
 * SRAG_READ_TIMEOUT_MS, positive whole numbers.
 */
export function readDocumentReadingLimits(environment: Record<string, string | undefined> = process.env): DocumentReadingLimits {
  return {
    maxPages: positiveIntegerSetting(environment, 'SRAG_MAX_PAGES', defaultDocumentReadingLimits.maxPages),
    readTimeoutMilliseconds: positiveIntegerSetting(environment, 'SRAG_READ_TIMEOUT_MS', defaultDocumentReadingLimits.readTimeoutMilliseconds),
  };
}
