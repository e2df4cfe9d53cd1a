import { describe, expect, it } from 'vitest';
import { parseRecordSchema } from '../../core/index.ts';
import { foldQuoteText } from '../../core/extraction/fold-quote-text.ts';
import { readRecordReply } from '../../core/extraction/read-record-reply.ts';

describe('readRecordReply values', () => {
  it('gives values without a prototype, where properties named __proto__, constructor and toString are ordinary keys in the schema order', () => {
    const names = ['__proto__', 'constructor', 'toString', 'price'];
    const schema = parseRecordSchema({
      title: 'Odd names',
      type: 'object',
      properties: Object.fromEntries(names.map((name) => [name, { type: name === 'price' ? 'number' : 'string', description: `The ${name}.` }])),
    });
    const documentText = 'Prototype: Alpha. Constructor: Beta. Shown as: Gamma. Price: 45.';
    const reply = JSON.parse('{"__proto__": {"value": "Alpha", "quote": "Prototype: Alpha"}, "constructor": {"value": "Beta", "quote": "Constructor: Beta"}, '
      + '"toString": {"value": "Gamma", "quote": "Shown as: Gamma"}, "price": {"value": 45, "quote": "Price: 45"}}') as unknown;
    const read = readRecordReply(reply, { schema, documentText, withEvidence: true, strict: false });
    if (!('value' in read)) throw new Error(read.problems.join('; '));
    const { values } = read.value;
    expect(Object.getPrototypeOf(values)).toBeNull();
    expect(Object.keys(values)).toEqual(names);
    expect([values.__proto__, values.constructor, values.toString, values.price]).toEqual(['Alpha', 'Beta', 'Gamma', 45]);
    expect('hasOwnProperty' in values).toBe(false);
  });
});

describe('foldQuoteText', () => {
  it('folds each text to its own parts, whatever was folded before it (its list of parts is kept from text to text)', () => {
    const many = Array.from({ length: 40 }, (_, index) => `Line ${index}: value ${index * 3}.`).join('\n');
    const expected = Array.from({ length: 40 }, (_, index) => `line ${index} value ${index * 3}`).join(' ');
    expect(foldQuoteText(many)).toBe(expected);
    expect(foldQuoteText('Price: $45')).toBe('price $ 45');
    expect(foldQuoteText('Rooms: 12')).toBe('rooms 12');
    expect(foldQuoteText('Swimming pool')).toBe('swimming pool');
    expect(foldQuoteText('...')).toBe('');
    expect(foldQuoteText(many)).toBe(expected);
  });
});
