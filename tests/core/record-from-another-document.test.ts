import { describe, expect, it } from 'vitest';
import type { PartRecord } from '../../core/extraction/read-record-reply.ts';
import { recordFromAnotherDocument } from '../../core/extraction/record-from-another-document.ts';

/** A record read without evidence: each value unchecked, with the model's own value as `raw`. */
function record(values: Record<string, string | number | boolean | null>, raw: Record<string, unknown> = {}, children?: PartRecord['children']): PartRecord {
  return {
    values,
    evidence: Object.entries(values).map(([attribute, value]) => ({ attribute, value, raw: attribute in raw ? raw[attribute] : value, quote: null, status: 'unchecked' as const, reason: null })),
    issues: [],
    ...(children ? { children } : {}),
  };
}

const entries = [
  { id: '1', text: 'Hôtel Aurora, Lisbon. Four-star hotel. Rooms from €1,250.00 per week. Opened 18 December 2012.' },
  { id: '2', text: 'Harbour Inn, Porto. 3 stars. Rooms from 95 EUR a night. Opened on 2015-06-01. Free parking: yes.' },
  { id: '3', text: 'The Cedar Lodge in Faro has 4 stars and rooms from 120 EUR.' },
];
const [aurora, harbour, cedar] = entries as [typeof entries[0], typeof entries[0], typeof entries[0]];

describe('recordFromAnotherDocument', () => {
  it('names the document of the call whose name, price and date a record holds, when its own states none of them', () => {
    const check = recordFromAnotherDocument(entries);
    expect(check(record({ hotel_name: 'Harbour Inn', price: 95, opened: '2015-06-01' }), aurora)).toBe('2');
    expect(check(record({ hotel_name: 'Hotel Aurora', price: 1250, opened: '2012-12-18' }), harbour)).toBe('1');
  });

  it('finds a value in its own document across writings: accents, a thousands group and decimals, a date with its month named', () => {
    const check = recordFromAnotherDocument(entries);
    expect(check(record({ hotel_name: 'Hotel Aurora', city: 'Lisbon', price: 1250, opened: '2012-12-18' }), aurora)).toBeUndefined();
    expect(check(record({ hotel_name: 'Harbour Inn', city: 'Porto', price: 95, opened: '2015-06-01', parking: true }), harbour)).toBeUndefined();
  });

  it('takes a normal form no document states as no sign, and lets the model\'s own text for it count', () => {
    const check = recordFromAnotherDocument(entries);
    // 4 stars: Aurora writes "Four-star", Cedar "4 stars" — the name of its own outweighs the digit found elsewhere.
    expect(check(record({ hotel_name: 'Hotel Aurora', stars: 4 }), aurora)).toBeUndefined();
    expect(check(record({ stars: 4 }, { stars: 'Four-star' }), aurora)).toBeUndefined();
    // The same value alone, with nothing of its own to weigh against it, is the sign of Cedar's record.
    expect(check(record({ stars: 4 }), aurora)).toBe('3');
    expect(check(record({ summary: 'a quiet family-run place by the sea', rating: 8.7 }), cedar)).toBeUndefined();
  });

  it('refuses a record whose values only another document states more of than its own, counting child items too', () => {
    const check = recordFromAnotherDocument(entries);
    const rooms = (prices: number[]) => ({ rooms: prices.map((price) => record({ price })) });
    expect(check(record({ city: 'Porto' }, {}, rooms([120])), harbour)).toBeUndefined();
    expect(check(record({ city: 'Porto' }, {}, rooms([120, 4])), harbour)).toBe('3');
  });

  it('finds a number only where it is written whole, not inside a longer one', () => {
    const ratings = [{ id: '1', text: 'Guest rating 8.7 of 10, from 125 reviews.' }, { id: '2', text: 'Guest rating 8 of 10, from 12 reviews.' }];
    const check = recordFromAnotherDocument(ratings);
    expect(check(record({ rating: 8 }), ratings[0]!)).toBe('2');
    expect(check(record({ reviews: 12 }, { reviews: '12 reviews' }), ratings[0]!)).toBe('2');
    expect(check(record({ rating: 8.7, reviews: 125 }), ratings[0]!)).toBeUndefined();
    expect(check(record({ rating: 8, reviews: 12 }), ratings[1]!)).toBeUndefined();
  });

  it('takes a chance hit or two in another document, among values no document states (misread or converted), as no swap', () => {
    const check = recordFromAnotherDocument(entries);
    const misread = { hotel_name: 'Hotel Aurelia', city: 'Lisboa', price: 1350, opened: '2012-12-19', rooms: 41 };
    expect(check(record({ ...misread, stars: 3 }), aurora)).toBeUndefined();
    expect(check(record({ ...misread, stars: 3, nightly: 95 }), aurora)).toBeUndefined();
    expect(check(record({ ...misread, stars: 3, nightly: 95, opened: '2015-06-01' }), aurora)).toBe('2');
  });

  it('never reads a boolean as a sign, nor a record without values', () => {
    const check = recordFromAnotherDocument(entries);
    expect(check(record({ parking: true, pool: false }), cedar)).toBeUndefined();
    expect(check(record({ hotel_name: null, price: null }), cedar)).toBeUndefined();
  });
});
