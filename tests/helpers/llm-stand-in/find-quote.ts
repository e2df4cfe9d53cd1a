import { normalizeWhitespace } from './text-matching.ts';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Per gold quote: its words joined by one space, and the pattern that finds them across any whitespace (made once, not per request). */
const quotePatterns = new Map<string, { joined: string; pattern: RegExp } | null>();

/**
 * The quote as it is written in `text` (its own line breaks and spacing), or undefined when it does
 * not occur there after whitespace normalization. A model copies what it sees. Most quotes occur
 * as written, single spaces and all: those are found without a regular expression.
 */
export function findQuote(text: string, quote: string | null | undefined): string | undefined {
  if (typeof quote !== 'string') return undefined;
  let entry = quotePatterns.get(quote);
  if (entry === undefined) {
    const words = normalizeWhitespace(quote).split(' ').filter(Boolean);
    entry = words.length === 0 ? null : { joined: words.join(' '), pattern: new RegExp(words.map(escapeRegExp).join('\\s+')) };
    quotePatterns.set(quote, entry);
  }
  if (entry === null) return undefined;
  if (text.includes(entry.joined)) return entry.joined;
  return entry.pattern.exec(text)?.[0];
}
