import { describe, expect, it } from 'vitest';
import { attributeVocabulary } from '../../core/extraction/attribute-vocabulary.ts';
import { judgeNumberInSentence } from '../../core/extraction/judge-number-in-sentence.ts';
import { quoteLocator } from '../../core/extraction/quote-occurs-in.ts';
import { sentenceAround } from '../../core/extraction/sentence-around.ts';
import { normalizeValue } from '../../core/normalization/normalize-value.ts';
import { numbersInText } from '../../core/normalization/numbers-in-text.ts';
import type { AttributeDefinition } from '../../core/schema/attribute-definition.ts';

/**
 * Issue 40, round 8: the evidence check's results of one role are built in one object shape (the
 * same properties, in the same order, whatever the outcome), so that V8 reads them through one
 * inline cache. An object built only with its outcome's properties came in up to six shapes, and
 * every read of one, per value checked, was a lookup by shape. The order of `Object.keys` is the
 * order the properties were added in: the shape, as far as a test outside V8 can see it.
 */

const attribute = (name: string, kind: AttributeDefinition['kind'], description: string, extra: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  name, kind, description, examples: [], ...extra,
});

const totalRooms = attribute('total_rooms', 'integer', 'The number of guest rooms the hotel has.');
const yearsOfExperience = attribute('years_of_experience', 'number', 'Total years of professional work experience the candidate states.', { unit: 'years' });
const revenue = attribute('revenue', 'number', 'Total revenue of the company for the fiscal year the report covers, in millions of US dollars.', { unit: 'USD', scale: 1e6 });

/** The judgement of the first number of `quote`, found in `document` as the evidence check finds it. */
function judgementOf(document: string, quote: string, of: AttributeDefinition) {
  const where = quoteLocator(document)(quote)!;
  const sentence = sentenceAround(where.document, where.spans[0]!);
  const number = numbersInText(sentence.text, of).numbers[0]!;
  return judgeNumberInSentence(number, sentence, of, attributeVocabulary(of));
}

describe('the evidence check builds each kind of result in one shape', () => {
  it('gives a normalized value, a missing marker and a rejected value the same properties in the same order', () => {
    const shapes = [normalizeValue('120', totalRooms), normalizeValue('n/a', totalRooms), normalizeValue('many', totalRooms), normalizeValue(true, attribute('has_pool', 'boolean', 'Whether it has a pool.'))]
      .map((result) => Object.keys(result));
    expect(shapes).toEqual([['value', 'issue'], ['value', 'issue'], ['value', 'issue'], ['value', 'issue']]);
  });

  it('gives a number judged for, open and against the attribute, with a year or without, the same properties in the same order', () => {
    const judgements = [
      judgementOf('The hotel has 120 guest rooms.', 'has 120 guest rooms', totalRooms),
      judgementOf('Operating costs were $4.1 billion.', '$4.1 billion', revenue),
      judgementOf('Revenue was $5.2 billion in fiscal 2023.', 'Revenue was $5.2 billion', revenue),
      judgementOf('Led a team of 7 engineers through a migration.', 'a team of 7 engineers', yearsOfExperience),
    ];
    expect(new Set(judgements.map((judgement) => judgement.verdict))).toEqual(new Set(['for', 'open', 'against']));
    expect(judgements.some((judgement) => judgement.year !== undefined)).toBe(true);
    expect(judgements.map((judgement) => Object.keys(judgement))).toEqual(judgements.map(() => ['verdict', 'reason', 'score', 'named', 'topic', 'year']));
  });

  it('gives the vocabulary of an attribute with a rate and of one without the same properties in the same order', () => {
    const perNight = attributeVocabulary(attribute('price_per_night', 'number', 'The price of one night.', { unit: 'USD' }));
    const rooms = attributeVocabulary(totalRooms);
    expect(perNight.rate).toBe('night');
    expect(rooms.rate).toBeUndefined();
    expect(Object.keys(perNight)).toEqual(Object.keys(rooms));
  });
});
