import { decoyValue } from './decoy-value.ts';
import { findQuote } from './find-quote.ts';
import type { GoldRecord, GoldValue } from './load-gold-corpus.ts';
import type { ModelSlip } from './types.ts';

/** What the stand-in answers for one property of one document: a value and its quote. */
export interface PropertyAnswer {
  value: unknown;
  quote: string | null;
}

/**
 * The answer a careful model gives from the gold record — the value as the document writes it and
 * the quote as it stands in the text, only when that quote occurs there — then the slips asked
 * for, as a real model makes them (see `ModelSlip`). `position` varies which re-typing a quote
 * gets, so one document shows several.
 */
export function answerProperty(
  name: string,
  record: GoldRecord | undefined,
  documentText: string,
  slips: readonly ModelSlip[],
  position: number,
): PropertyAnswer {
  const gold: GoldValue | undefined = record && Object.hasOwn(record.values, name) ? record.values[name] : undefined;
  const quote = findQuote(documentText, gold?.quote);
  if (quote === undefined) return { value: null, quote: null };
  let answer: PropertyAnswer = { value: gold?.raw ?? gold?.value ?? null, quote };
  if (answer.value === null) return answer;
  if (slips.includes('misread-values')) answer = { ...answer, value: misread(gold!.value, position) };
  if (slips.includes('retype-quotes')) answer = { ...answer, quote: retype(quote, gold!, position) };
  if (slips.includes('fabricate-quotes')) answer = { ...answer, quote: `The ${name.replace(/_/g, ' ')} is ${String(gold!.raw ?? gold!.value)}.` };
  if (slips.includes('decoy-values') && typeof gold!.value === 'number') {
    const decoy = decoyValue(documentText, quote, gold!.raw ?? String(gold!.value), position + documentText.length);
    if (decoy) answer = decoy;
  }
  if (slips.includes('elide-over-value')) answer = { ...answer, quote: elideOverValue(answer.quote!, String(gold!.raw ?? '')) ?? answer.quote };
  // A terse quote of a yes or a no would be no quote of anything: only values that are said, not derived.
  if (slips.includes('terse-quotes') && typeof gold!.raw === 'string' && typeof gold!.value !== 'boolean') answer = { ...answer, quote: findQuote(documentText, gold!.raw) ?? answer.quote };
  return answer;
}

/**
 * The quote with part of the value elided, words kept on both sides: a value of three words or more
 * keeps its first and last ("100.25 … dollars a year"), one of two its first ("Software … at
 * Northwind Traders."), one of one word goes whole ("Born in … in Porto."). Undefined when the
 * value is not in the quote (a derived count) or nothing follows it: an elision needs an end.
 */
function elideOverValue(quote: string, raw: string): string | undefined {
  const at = raw ? quote.indexOf(raw) : -1;
  if (at < 0) return undefined;
  const before = quote.slice(0, at);
  const after = quote.slice(at + raw.length);
  if (!/[\p{L}\p{N}]/u.test(after)) return undefined;
  const words = raw.split(' ');
  if (words.length >= 3) return `${before}${words[0]} … ${words.at(-1)}${after}`;
  if (words.length === 2) return `${before}${words[0]} …${after}`;
  return /[\p{L}\p{N}]/u.test(before) ? `${before.trimEnd()} …${after}` : undefined;
}

/** A value the quote does not say: a magnitude slip or an off-by-one, a shifted day, a wrong name, a flipped flag. */
function misread(value: unknown, position: number): unknown {
  if (typeof value === 'number') return position % 2 === 0 ? value * 1000 : value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const [year, month, day] = value.split('-').map(Number) as [number, number, number];
    const shifted = day >= 28 ? day - 1 : day + 1;
    return `${year}-${String(month).padStart(2, '0')}-${String(shifted).padStart(2, '0')}`;
  }
  return typeof value === 'string' ? `Misread ${value}` : value;
}

/**
 * The quote re-typed one of the ways models copy text: letter case, quotation marks, a list marker
 * and markdown, line breaks for spaces, punctuation dropped, or the middle elided (never the part
 * that states the value, as a model elides what it does not need).
 */
function retype(quote: string, gold: GoldValue, position: number): string {
  const kinds = [
    () => quote.toUpperCase(),
    () => `“${quote}”`,
    () => `- **${quote}**`,
    () => quote.replace(/ (\S+) /g, ' $1\n  '),
    () => `${quote.replace(/[,:;|](?!\d)/g, '').replace(/[.!]$/, '')}.`.toLowerCase(),
    () => elideAround(quote, String(gold.raw ?? '')) ?? `"${quote}"`,
  ];
  return kinds[position % kinds.length]!();
}

/** The quote with words elided away from the value's words, or undefined when there are too few. */
function elideAround(quote: string, raw: string): string | undefined {
  const words = quote.split(' ');
  const rawWords = raw.split(/\s+/).filter(Boolean);
  const holdsValue = words.map((word) => rawWords.some((rawWord) => word.includes(rawWord)));
  const first = holdsValue.indexOf(true);
  const last = holdsValue.lastIndexOf(true);
  if (first < 0) return words.length >= 6 ? `${words.slice(0, 2).join(' ')} … ${words.slice(-2).join(' ')}` : undefined;
  if (first >= 4) return `${words.slice(0, 2).join(' ')} … ${words.slice(first - 1).join(' ')}`;
  if (words.length - last >= 5) return `${words.slice(0, last + 1).join(' ')} … ${words.slice(-2).join(' ')}`;
  return undefined;
}
