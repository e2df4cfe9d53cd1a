import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeValue } from '../../core/normalization/index.ts';
import type { AttributeDefinition } from '../../core/schema/attribute-definition.ts';

/**
 * Property tests over the surface forms of numbers: a number is generated as decimal digits,
 * written the ways documents and models write it, and normalization must give that number back or
 * refuse the text with an issue — never another number. Forms whose reading is a documented
 * convention rather than a fact are left out where they are generated, each with its reason:
 * - a single comma followed by exactly three digits ("1,234") is read as English thousands, so a
 *   European "1,234" meaning 1.234 is not generated;
 * - outside money a single dot followed by three digits ("1.234") is a decimal point, so a European
 *   "1.234" meaning 1234 is generated only for money;
 * - money has at most two decimals.
 */

/** A non-negative decimal written as digits: `whole` without leading zeros (or "0"), `fraction` as written. */
interface Digits {
  whole: string;
  fraction: string;
}

const column = (overrides: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  name: 'amount', kind: 'number', description: 'a test column', examples: [], ...overrides,
});

const valueOf = ({ whole, fraction }: Digits, negative = false): number => {
  const value = Number(`${whole}.${fraction || '0'}`);
  return negative && value !== 0 ? -value : value;
};

const digitsArbitrary = (maxWhole: bigint, maxFractionDigits: number) =>
  fc.record({
    whole: fc.bigInt(0n, maxWhole).map(String),
    fraction: fc.tuple(fc.integer({ min: 0, max: maxFractionDigits }), fc.integer({ min: 0, max: 10 ** maxFractionDigits - 1 }))
      .map(([length, digits]) => String(digits).padStart(maxFractionDigits, '0').slice(0, length)),
  });

function group(whole: string, separator: string): string {
  return whole.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/** Leading digit, the rest as a fraction, and a power of ten: exact, as no float is involved. */
function scientific({ whole, fraction }: Digits, mark: string, letter: string): string {
  const all = (whole + fraction).replace(/^0+/, '');
  if (all === '') return `0${letter}0`;
  const trailing = /0*$/.exec(all)![0].length;
  const significant = all.slice(0, all.length - trailing);
  const exponent = all.length - 1 - fraction.length;
  return `${significant[0]}${significant.length > 1 ? mark + significant.slice(1) : ''}${letter}${exponent}`;
}

/** `grouped` then a decimal comma; undefined for "1,234", which reads as English thousands. */
function withDecimalComma(whole: string, grouped: string, fraction: string): string | undefined {
  if (fraction.length === 3 && /^[1-9]\d{0,2}$/.test(whole)) return undefined;
  return grouped + (fraction ? `,${fraction}` : '');
}

type Render = (digits: Digits, money: boolean) => string | undefined;

/** Ways to write the digits; undefined where a form would rely on a documented convention (see top). */
const plainForms: Record<string, Render> = {
  plain: ({ whole, fraction }) => whole + (fraction ? `.${fraction}` : ''),
  english: ({ whole, fraction }) => group(whole, ',') + (fraction ? `.${fraction}` : ''),
  european: ({ whole, fraction }, money) => {
    const grouped = group(whole, '.');
    if (!fraction && !money && grouped.split('.').length === 2) return undefined;
    return withDecimalComma(whole, grouped, fraction);
  },
  'european without groups': ({ whole, fraction }) => withDecimalComma(whole, whole, fraction),
  'spaced, decimal comma': ({ whole, fraction }) => withDecimalComma(whole, group(whole, ' '), fraction),
  'spaced, decimal point': ({ whole, fraction }) => group(whole, ' ') + (fraction ? `.${fraction}` : ''),
  'no-break spaced': ({ whole, fraction }) => withDecimalComma(whole, group(whole, '\u00a0'), fraction),
  'narrow no-break spaced': ({ whole, fraction }) => group(whole, '\u202f') + (fraction ? `.${fraction}` : ''),
  swiss: ({ whole, fraction }) => group(whole, "'") + (fraction ? `.${fraction}` : ''),
  scientific: (digits) => scientific(digits, '.', 'e'),
  'scientific, capital E': (digits) => scientific(digits, '.', 'E'),
  'scientific, decimal comma': (digits) => scientific(digits, ',', 'e'),
};

/** Forms that must be read (not only never misread): refusing them would be a cop-out. */
const mustRead = new Set(['plain', 'english', 'scientific']);

const signs: Record<string, (text: string) => string> = {
  none: (text) => text,
  minus: (text) => `-${text}`,
  'unicode minus': (text) => `\u2212${text}`,
  'en dash': (text) => `\u2013${text}`,
  plus: (text) => `+${text}`,
  accounting: (text) => `(${text})`,
};

const formName = fc.constantFrom(...Object.keys(plainForms));
const signName = fc.constantFrom(...Object.keys(signs));

function checkReading(text: string, attribute: AttributeDefinition, expected: number, required: boolean): void {
  const result = normalizeValue(text, attribute);
  if (result.issue) {
    expect(required, `${JSON.stringify(text)} was refused: ${result.issue.message}`).toBe(false);
    expect(result.value).toBeNull();
    return;
  }
  expect(result.value, `${JSON.stringify(text)} in a ${attribute.kind} ${attribute.unit ?? ''} column`).toBe(expected);
}

describe('normalizeValue over surface forms of numbers (property-based)', () => {
  it('gives back any number written with English, European, spaced or Swiss separators or in scientific notation, with any sign', () => {
    fc.assert(
      fc.property(digitsArbitrary(999_999_999_999n, 4), formName, signName, (digits, form, sign) => {
        const written = plainForms[form]!(digits, false);
        if (written === undefined) return;
        const negative = sign === 'minus' || sign === 'unicode minus' || sign === 'en dash' || sign === 'accounting';
        checkReading(signs[sign]!(written), column(), valueOf(digits, negative), mustRead.has(form));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives back whole numbers in an integer column, in every separator form', () => {
    fc.assert(
      fc.property(digitsArbitrary(999_999_999_999n, 0), formName, (digits, form) => {
        const written = plainForms[form]!(digits, false);
        if (written === undefined) return;
        checkReading(written, column({ kind: 'integer' }), valueOf(digits), mustRead.has(form));
      }),
      { numRuns: 1000 },
    );
  });

  const currencies: Record<string, { prefixes: string[]; suffixes: string[] }> = {
    USD: { prefixes: ['$', '$ ', 'US$', 'USD ', 'USD'], suffixes: [' USD', 'USD', ' dollars', ' US dollars'] },
    EUR: { prefixes: ['€', '€ ', 'EUR ', 'eur '], suffixes: [' €', '€', ' EUR', ' euros'] },
    GBP: { prefixes: ['£', 'GBP '], suffixes: [' GBP', ' pounds', ' pounds sterling'] },
  };

  it('gives back amounts of money with a currency symbol or code before or after, and accounting or signed negatives', () => {
    const moneyForm = fc.record({
      code: fc.constantFrom(...Object.keys(currencies)),
      form: formName,
      placement: fc.constantFrom('prefix', 'suffix', 'none'),
      pick: fc.nat(),
      negative: fc.constantFrom('none', 'minus before', 'minus after symbol', 'accounting', 'accounting inside'),
    });
    fc.assert(
      fc.property(digitsArbitrary(999_999_999_99n, 2), moneyForm, (digits, { code, form, placement, pick, negative }) => {
        const written = plainForms[form]!(digits, true);
        if (written === undefined) return;
        const { prefixes, suffixes } = currencies[code]!;
        const prefix = placement === 'prefix' ? prefixes[pick % prefixes.length]! : '';
        const suffix = placement === 'suffix' ? suffixes[pick % suffixes.length]! : '';
        const text = {
          none: `${prefix}${written}${suffix}`,
          'minus before': `-${prefix}${written}${suffix}`,
          'minus after symbol': `${prefix}-${written}${suffix}`,
          accounting: `(${prefix}${written}${suffix})`,
          'accounting inside': `${prefix}(${written})${suffix}`,
        }[negative];
        if (negative === 'accounting inside' && prefix === '') return;
        checkReading(text, column({ unit: code }), valueOf(digits, negative !== 'none'), mustRead.has(form));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives back amounts written with magnitude words, in the column\'s scale', () => {
    const magnitudes: Array<[string, number]> = [
      ['k', 3], ['K', 3], [' thousand', 3], ['M', 6], ['m', 6], [' million', 6], [' mn', 6], ['MM', 6], [' Mio', 6],
      ['bn', 9], ['B', 9], [' billion', 9], [' trillion', 12], ['tn', 12],
    ];
    const amount = fc.record({
      digits: digitsArbitrary(999n, 3),
      magnitude: fc.constantFrom(...magnitudes),
      decimalComma: fc.boolean(),
      prefix: fc.constantFrom('', '$', 'USD '),
      scale: fc.constantFrom(1, 1e3, 1e6),
    });
    fc.assert(
      fc.property(amount, ({ digits, magnitude: [word, power], decimalComma, prefix, scale }) => {
        if (decimalComma && digits.fraction.length === 3) return;
        const written = `${prefix}${digits.whole}${digits.fraction ? `${decimalComma ? ',' : '.'}${digits.fraction}` : ''}${word}`;
        const expected = Number(`${digits.whole}.${digits.fraction || '0'}e${power - Math.log10(scale)}`);
        checkReading(written, column({ unit: prefix ? 'USD' : undefined, scale }), expected, !decimalComma);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives back percentages in a percent column and their fraction in a ratio column', () => {
    fc.assert(
      fc.property(digitsArbitrary(999n, 3), fc.constantFrom('%', ' %', ' percent', ' per cent'), (digits, sign) => {
        const written = `${digits.whole}${digits.fraction ? `.${digits.fraction}` : ''}${sign}`;
        checkReading(written, column({ unit: 'percent' }), valueOf(digits), true);
        const ratio = normalizeValue(written, column({ unit: 'ratio' }));
        expect(ratio.issue).toBeUndefined();
        expect(ratio.value).toBeCloseTo(valueOf(digits) / 100, 12);
      }),
      { numRuns: 500 },
    );
  });
});
