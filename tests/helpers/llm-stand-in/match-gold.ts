import path from 'node:path';
import type { GoldCorpus, GoldRecord } from './load-gold-corpus.ts';
import { invalidRequestReply, type Reply } from './reply.ts';
import { repositoryRoot } from './repository-root.ts';
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
 * Which quotes occur is found in one pass over the text (see `quotesInText`); the records holding
 * them are then met rarest quote first, each counted whole, until no record not yet met could
 * reach the best count — a page's name and address single out its record long before "Paris" or
 * "Swimming pool: Yes", which thousands of records of a large corpus cite, would be walked.
 */
export function findBestRecord(corpora: GoldCorpus[], normalizedText: string): GoldRecord | undefined {
  let best: GoldRecord | undefined;
  let bestCount = 0;
  for (const corpus of corpora) {
    const holders = recordsByQuote(corpus);
    const found: QuoteHolders[] = [];
    for (const quote of quotesInText(corpus, normalizedText)) {
      const holding = holders.get(quote);
      if (holding) found.push(holding);
    }
    found.sort((left, right) => left.records.length - right.records.length);
    // unmet[i]: the most a record holding none of found[0 … i-1] could still count.
    const unmet = new Array<number>(found.length + 1).fill(0);
    for (let at = found.length - 1; at >= 0; at -= 1) unmet[at] = unmet[at + 1]! + found[at]!.mostTimes;
    const met = new Set<number>();
    let corpusBest: number | undefined;
    for (let at = 0; at < found.length && unmet[at]! >= bestCount; at += 1) {
      for (const recordIndex of found[at]!.records) {
        if (met.has(recordIndex)) continue;
        met.add(recordIndex);
        const count = countQuotesFound(corpus.records[recordIndex]!, normalizedText);
        if (count > bestCount || (count === bestCount && corpusBest !== undefined && recordIndex < corpusBest)) {
          bestCount = count;
          corpusBest = recordIndex;
        }
      }
    }
    if (corpusBest !== undefined) best = corpus.records[corpusBest];
  }
  return best;
}

/** The records that cite a quote, in record order, and the most values of one of them that do. */
interface QuoteHolders {
  records: Uint32Array;
  /** The most times one record cites the quote. */
  mostTimes: number;
}

/** Per corpus: for each quote, the records that cite it. */
const recordIndexes = new WeakMap<GoldCorpus, Map<string, QuoteHolders>>();

function recordsByQuote(corpus: GoldCorpus): Map<string, QuoteHolders> {
  let index = recordIndexes.get(corpus);
  if (!index) {
    const byQuote = new Map<string, Map<number, number>>();
    corpus.records.forEach((record, recordIndex) => {
      for (const goldValue of Object.values(record.values)) {
        if (typeof goldValue?.quote !== 'string') continue;
        const holders = byQuote.get(goldValue.quote) ?? new Map<number, number>();
        holders.set(recordIndex, (holders.get(recordIndex) ?? 0) + 1);
        byQuote.set(goldValue.quote, holders);
      }
    });
    index = new Map([...byQuote].map(([quote, holders]) => {
      let mostTimes = 0;
      for (const times of holders.values()) mostTimes = Math.max(mostTimes, times);
      return [quote, { records: Uint32Array.from(holders.keys()), mostTimes }];
    }));
    recordIndexes.set(corpus, index);
  }
  return index;
}

/** A node of the quote automaton: next states by UTF-16 code unit, the failure link, the quotes that end here. */
interface QuoteNode {
  /** By UTF-16 code unit: a surrogate pair is two steps, in the quotes as in the text. */
  next: Map<number, QuoteNode>;
  fail: QuoteNode | undefined;
  quotes: string[];
}

/** Per corpus, an Aho–Corasick automaton over its quotes' normalized forms: every quote found in one pass. */
const quoteAutomata = new WeakMap<GoldCorpus, QuoteNode>();

function quoteAutomaton(corpus: GoldCorpus): QuoteNode {
  let root = quoteAutomata.get(corpus);
  if (root) return root;
  root = { next: new Map(), fail: undefined, quotes: [] };
  for (const record of corpus.records) {
    for (const goldValue of Object.values(record.values)) {
      const quote = goldValue?.quote;
      if (typeof quote !== 'string') continue;
      const needle = normalizeWhitespace(quote);
      if (needle.length === 0) continue;
      let node = root;
      for (let at = 0; at < needle.length; at += 1) {
        const unit = needle.charCodeAt(at);
        let child = node.next.get(unit);
        if (!child) node.next.set(unit, child = { next: new Map(), fail: undefined, quotes: [] });
        node = child;
      }
      // A quote thousands of records share ("Swimming pool: Yes") ends here once, not once per record.
      if (!node.quotes.includes(quote)) node.quotes.push(quote);
    }
  }
  const queue: QuoteNode[] = [];
  for (const child of root.next.values()) {
    child.fail = root;
    queue.push(child);
  }
  for (let index = 0; index < queue.length; index += 1) {
    const node = queue[index]!;
    for (const [unit, child] of node.next) {
      let fail = node.fail;
      while (fail && !fail.next.has(unit)) fail = fail.fail;
      child.fail = fail?.next.get(unit) ?? root;
      child.quotes.push(...child.fail.quotes);
      queue.push(child);
    }
  }
  quoteAutomata.set(corpus, root);
  return root;
}

/** The (raw) quotes of `corpus` that occur in the normalized text — what `containsQuote` says of each. */
function quotesInText(corpus: GoldCorpus, normalizedText: string): Set<string> {
  const root = quoteAutomaton(corpus);
  const found = new Set<string>();
  let node = root;
  for (let at = 0; at < normalizedText.length; at += 1) {
    const unit = normalizedText.charCodeAt(at);
    while (node !== root && !node.next.has(unit)) node = node.fail!;
    node = node.next.get(unit) ?? root;
    for (const quote of node.quotes) found.add(quote);
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

/** The corpora a stand-in answers from, as a reader would name them: "examples/hotels, examples/worldcup". */
export function describeCorpora(corpora: GoldCorpus[]): string {
  return corpora.map((corpus) => path.relative(repositoryRoot, corpus.directory) || '.').join(', ');
}

/**
 * The refusal for a request the gold data cannot answer: an error reply, so that a demo or a test
 * never passes on an answer the stand-in made up. A real model would answer; this is no model.
 */
export function noGoldReply(what: string, corpora: GoldCorpus[]): Reply {
  return invalidRequestReply(`the LLM stand-in has no gold ${what}; it answers only from the gold data of ${describeCorpora(corpora)} (a real model answers anything)`, 'messages');
}
