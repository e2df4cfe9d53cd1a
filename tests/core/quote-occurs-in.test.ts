import { describe, expect, it } from 'vitest';
import { quoteOccursIn } from '../../core/index.ts';
import { foldQuoteText } from '../../core/extraction/fold-quote-text.ts';
import { longestElision, quoteLocator, quoteMatcher } from '../../core/extraction/quote-occurs-in.ts';
import { sentenceAround } from '../../core/extraction/sentence-around.ts';
import { numbersInText } from '../../core/normalization/numbers-in-text.ts';

const document = [
  '# The Grand Budapest Hotel',
  '',
  'Welcome to the **Grand Budapest Hotel**, in the heart of Zürich.',
  'Rooms start at $1,234 per night; suites at US$ 2,500.',
  '',
  '## Facilities',
  '- Swimming pool: Yes',
  '- Airport shuttle: No',
  '1. Breakfast: included',
  '',
  'Guest rating: 9.4/10 (from 1,000 reviews). The hotel opened in 2010–2014 phases.',
  'Net result: ($1,234.50) in 2023, a loss of -45 after tax.',
  'Our manager, “Camille Laurent”, says the outdoor\n   swimming pool is the largest in town.',
].join('\n');

/** Quotes as real models re-type them: each must be kept. */
const kept: Array<[string, string]> = [
  ['exact', 'Rooms start at $1,234 per night'],
  ['letter case', 'ROOMS START AT $1,234 PER NIGHT'],
  ['punctuation added and dropped', 'Welcome to the Grand Budapest Hotel in the heart of Zürich!'],
  ['diacritics dropped', 'in the heart of Zurich'],
  ['spacing and line breaks', 'the outdoor swimming\npool is the largest'],
  ['no space after a currency symbol', 'suites at US$2,500'],
  ['quotation marks around the quote', '"Rooms start at $1,234 per night."'],
  ['typographic quotation marks', '“Swimming pool: Yes”'],
  ['straight quotes for curly ones', 'Our manager, "Camille Laurent", says'],
  ['markdown emphasis dropped', 'Welcome to the Grand Budapest Hotel'],
  ['markdown emphasis added', 'Welcome to the **Grand Budapest Hotel**'],
  ['list marker kept', '- Swimming pool: Yes'],
  ['list marker changed', '* Airport shuttle: No'],
  ['numbered list marker', '1. Breakfast: included'],
  ['list marker added', '• Breakfast: included'],
  ['heading marker', '# The Grand Budapest Hotel'],
  ['elided middle with three dots', 'Rooms start at ... per night'],
  ['elided middle with an ellipsis', 'Welcome to the Grand Budapest Hotel … Zürich'],
  ['elision in brackets', 'Guest rating: 9.4/10 [...] reviews'],
  ['leading and trailing elision', '... the largest in town...'],
  ['elision across lines', 'Swimming pool: Yes … Breakfast: included'],
  ['a score', 'Guest rating: 9.4/10'],
  ['a number inside parentheses', '1,000 reviews'],
  ['one end of a range', 'opened in 2010'],
  ['an accounting negative re-typed with a minus', 'Net result: -$1,234.50'],
];

/** Quotes that are not in the document, or not whole: each must be refused. */
const refused: Array<[string, string]> = [
  ['fabricated', 'Rooms start at $99 per night'],
  ['a number changed', 'Guest rating: 9.5/10'],
  ['a number cut short', 'Rooms start at $1'],
  ['thousands separator changed', 'Rooms start at $1.234 per night'],
  ['a digit inside a longer number', '234 per night'],
  ['a currency changed', 'Rooms start at €1,234 per night'],
  ['a negative dropped to positive', 'Net result: $1,234.50'],
  ['a sign dropped', 'a loss of 45 after tax'],
  ['a word changed', 'Rooms start at $1,234 per week'],
  ['part of a word', 'Budapes'],
  ['words reordered', 'per night start at $1,234'],
  ['elided parts out of order', 'per night ... Rooms start at'],
  ['an elided part not in the document', 'Rooms start at ... $99'],
  ['another hotel with an elision', 'Welcome to the ... Overlook Hotel'],
  ['only punctuation', '"..."'],
  ['empty', '   '],
];

describe('quoteOccursIn', () => {
  it.each(kept)('keeps a quote re-typed this way: %s', (_, quote) => {
    expect(quoteOccursIn(quote, document)).toBe(true);
  });

  it.each(refused)('refuses a quote: %s', (_, quote) => {
    expect(quoteOccursIn(quote, document)).toBe(false);
  });

  it('matches an elision only when the elided text is at most a bounded length', () => {
    const filler = 'lorem ipsum '.repeat(Math.ceil(longestElision / 12));
    const near = `Revenue was strong. ${'x '.repeat(20)}It reached 100 in total.`;
    const far = `Revenue was strong. ${filler}${filler}It reached 100 in total.`;
    expect(quoteOccursIn('Revenue … 100', near)).toBe(true);
    expect(quoteOccursIn('Revenue … 100', far)).toBe(false);
  });

  it('finds an elided quote whose first passage occurs many times, using the occurrence close to the rest', () => {
    const text = `${'Revenue grew. '.repeat(2_000)}Revenue reached 100.`;
    expect(quoteOccursIn('Revenue … 100', text)).toBe(true);
    expect(quoteOccursIn('Revenue … 101', text)).toBe(false);
  });

  it('checks a long document in time linear in its length, even for a passage that occurs everywhere', () => {
    // "a" occurs 50,000 times: trying each occurrence against the rest would take ~10^10 steps.
    const matches = quoteMatcher(`${'a b '.repeat(50_000)}end`);
    expect(matches('a … a … a … end')).toBe(true);
    expect(matches('a … a … missing')).toBe(false);
  });
});

describe('quoteLocator', () => {
  const locate = quoteLocator(document);

  it('gives the span an elided quote covers, first passage to last, and the sentence it sits in', () => {
    const where = locate('Rooms start … per night')!;
    expect(where.passages).toBe(2);
    expect(where.spans).toHaveLength(1);
    const { start, end } = where.spans[0]!;
    expect(where.document.text.slice(start, end)).toBe('rooms start at $ 1,234 per night');
    expect(sentenceAround(where.document, where.spans[0]!).text).toBe('rooms start at $ 1,234 per night');
  });

  it('keeps every place a quote occurs, and nothing where it does not', () => {
    expect(locate('Swimming pool')!.spans).toHaveLength(2);
    expect(locate('Swimming pool: No')).toBeUndefined();
  });

  it('finds the sentence of a terse quote, from the end of the line or sentence before it', () => {
    const where = locate('9.4/10')!;
    expect(sentenceAround(where.document, where.spans[0]!).text).toBe('guest rating 9.4/10 from 1,000 reviews');
  });
});

describe('foldQuoteText of a text with a few non-ASCII characters', () => {
  it('folds each accented name, compatibility form and dash as the whole text\'s NFKD would, marks in any order', () => {
    const text = 'Zu\u0308rich: Café “Crème” — ﬁve Ａ１ rooms, q\u0307\u0323 and ℌ²; Ǆemal −45 € (1,234) São Paulo';
    expect(foldQuoteText(text)).toBe('zurich cafe creme five a1 rooms q and h2 dzemal -45 € -1,234 sao paulo');
  });
  it('moves a minus after the currency symbol it stands before, across any whitespace, and leaves a list\'s dashes alone', () => {
    expect(foldQuoteText('- Refund: -$ 45\n- Fee: - 12')).toBe('refund $ -45 fee 12');
    // Whitespace that NFKD leaves as it is (an ogham space mark, a byte-order mark), before a symbol beyond ASCII.
    expect(foldQuoteText('Solde : -\u1680€ 5, - 7 €')).toBe('solde € -5 7 €');
    expect(foldQuoteText('Cost -\ufeff£12 (est.) - ₹ soon')).toBe('cost £ -12 est ₹ soon');
  });
});

describe('foldQuoteText with sentence and clause ends', () => {
  it('marks line breaks and full stops but not an initial, and commas and an opening parenthesis after a number', () => {
    const breaks = { sentenceEnds: [] as number[], clauseEnds: [] as number[] };
    const folded = foldQuoteText('b. 1978 in Porto. Goals: 73 (2.28 per match), Venue(s): 3\nDecember 31, 2020', breaks);
    expect(folded).toBe('b 1978 in porto goals 73 2.28 per match venue s 3 december 31 2020');
    expect(breaks.sentenceEnds.map((end) => folded.slice(0, end).split(' ').at(-1))).toEqual(['porto', '3']);
    expect(breaks.clauseEnds.map((end) => folded.slice(0, end).split(' ').at(-1))).toEqual(['73', 'match']);
  });
});

describe('numbersInText', () => {
  it('reads a dash right after a digit as a range or a score, not as a minus sign', () => {
    const count = { name: 'goals', kind: 'integer' as const, description: '', examples: [] };
    expect(numbersInText('City beat United 2-1 in the final', count).numbers.map((number) => number.value)).not.toContain(-1);
    expect(numbersInText('Net result -45 after tax, built 2010-2014', count).numbers.map((number) => number.value)).toEqual([-45, 2010, 2014]);
  });

  it('finds numbers where the word boundaries of a regular expression would: after a letter, never inside a number or a word', () => {
    const count = { name: 'rooms', kind: 'integer' as const, description: '', examples: [] };
    const read = (text: string) => numbersInText(text, count).numbers.map((number) => [number.value, text.slice(number.start, number.end)]);
    expect(read('Room_5 has twelve_beds, suite B12 has a dozen beds')).toEqual([[5, '5'], [12, 'twelve'], [12, '12'], [12, 'a dozen']]);
    expect(read('Rooms: twenty-one, 1,234 reviews, 3/5 or 2.5')).toEqual([[21, 'twenty-one'], [1234, '1,234'], [3, '3']]);
    expect(read('fivé ways, Twelve Rooms, someone')).toEqual([[12, 'Twelve']]);
    expect(read('Suite 4a dozen steps away')).toEqual([[4, '4']]);
    expect(read("1'000 guests and 1’000 more")).toEqual([[1000, "1'000"], [1000, '1’000']]);
  });
});

