import type { GoldCorpus, GoldRecord } from './load-gold-corpus.ts';
import { containsQuote, normalizeWhitespace } from './text-matching.ts';

/** How many of the record's non-null quotes occur in the (whitespace-normalized) text. */
export function countQuotesFound(record: GoldRecord, normalizedText: string): number {
  let found = 0;
  for (const goldValue of Object.values(record.values)) {
    if (containsQuote(normalizedText, goldValue?.quote)) found += 1;
  }
  return found;
}

/**
 * The gold record whose quotes occur most often in the text (ties: the first), or undefined when none occurs.
 * Only records with a quote in the text are counted; which quotes occur is found in one pass over
 * the text (see `quotesInText`) rather than by searching the text once per quote of every record.
 */
export function findBestRecord(corpora: GoldCorpus[], normalizedText: string): GoldRecord | undefined {
  let best: GoldRecord | undefined;
  let bestCount = 0;
  for (const corpus of corpora) {
    const found = quotesInText(corpus, normalizedText);
    if (found.size === 0) continue;
    for (const record of corpus.records) {
      let count = 0;
      for (const goldValue of Object.values(record.values)) {
        if (typeof goldValue?.quote === 'string' && found.has(goldValue.quote)) count += 1;
      }
      if (count > bestCount) {
        best = record;
        bestCount = count;
      }
    }
  }
  return best;
}

/** Per corpus: its quotes by the first three characters of their normalized form, and those shorter. */
const quoteIndexes = new WeakMap<GoldCorpus, { byPrefix: Map<string, Array<[quote: string, needle: string]>>; short: Array<[string, string]> }>();
const prefixLength = 3;

/** The (raw) quotes of `corpus` that occur in the normalized text — what `containsQuote` says of each. */
function quotesInText(corpus: GoldCorpus, normalizedText: string): Set<string> {
  let index = quoteIndexes.get(corpus);
  if (!index) {
    index = { byPrefix: new Map(), short: [] };
    for (const record of corpus.records) {
      for (const goldValue of Object.values(record.values)) {
        const quote = goldValue?.quote;
        if (typeof quote !== 'string') continue;
        const needle = normalizeWhitespace(quote);
        if (needle.length === 0) continue;
        if (needle.length < prefixLength) index.short.push([quote, needle]);
        else {
          const bucket = index.byPrefix.get(needle.slice(0, prefixLength)) ?? [];
          bucket.push([quote, needle]);
          index.byPrefix.set(needle.slice(0, prefixLength), bucket);
        }
      }
    }
    quoteIndexes.set(corpus, index);
  }
  const found = new Set<string>();
  for (const [quote, needle] of index.short) if (normalizedText.includes(needle)) found.add(quote);
  for (let position = 0; position + prefixLength <= normalizedText.length; position += 1) {
    const bucket = index.byPrefix.get(normalizedText.slice(position, position + prefixLength));
    if (!bucket) continue;
    for (const [quote, needle] of bucket) if (!found.has(quote) && normalizedText.startsWith(needle, position)) found.add(quote);
  }
  return found;
}

/** The corpus whose records' quotes occur most often in the text (ties: the first), or undefined when none occurs. */
export function findBestCorpus(corpora: GoldCorpus[], normalizedText: string): GoldCorpus | undefined {
  let best: GoldCorpus | undefined;
  let bestCount = 0;
  for (const corpus of corpora) {
    const count = corpus.records.reduce((sum, record) => sum + countQuotesFound(record, normalizedText), 0);
    if (count > bestCount) {
      best = corpus;
      bestCount = count;
    }
  }
  return best;
}
