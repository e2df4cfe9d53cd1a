import { describe, expect, it } from 'vitest';
import { quoteStatesValue } from '../../core/extraction/quote-states-value.ts';
import { readRecordReply } from '../../core/extraction/read-record-reply.ts';
import { longestElision } from '../../core/extraction/quote-occurs-in.ts';
import type { AttributeDefinition } from '../../core/schema/attribute-definition.ts';

const column = (kind: AttributeDefinition['kind'], overrides: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  name: 'value', kind, description: 'a test column', examples: [], ...overrides,
});
const usd = column('number', { unit: 'USD' });
const millionsOfUsd = column('number', { unit: 'USD', scale: 1e6 });
const metres = column('number', { unit: 'metres' });
const count = column('integer');
const plain = column('number');
const date = column('date');
const text = column('string');
const flag = column('boolean');
const languages = column('integer', { name: 'num_languages', description: 'How many spoken languages the candidate lists.' });
const amenities = column('integer', { name: 'amenity_count', description: 'How many amenities the page lists.' });

type Row = [string, string | number | boolean, string, AttributeDefinition];

/** Values a careful model derives from its quote: each must be accepted. */
const stated: Row[] = [
  ['a price as written', 470, 'Price per night: USD 470.00', usd],
  ['a price with thousands separators', 1234, 'Rooms start at $1,234 per night.', usd],
  ['a magnitude word', 5100, 'Reviews: 5.1k', count],
  ['a unit converted to the column\'s', 2000, 'Distance to center: 2 km', metres],
  ['a number inside quotation marks and markdown', 2000, '“Distance to center: **2 km**”', metres],
  ['a scale applied', 1.2, 'Revenue was $1.2 million in 2023.', millionsOfUsd],
  ['a number words', 12, 'The hotel has twelve rooms.', count],
  ['a number next to a hyphenated word', 4, 'This 4-star property is well known.', count],
  ['one of several numbers', 32808, 'Attendance | 590,549 (32,808 per match)', count],
  ['a score', 9.4, 'Guest rating: 9.4/10', plain],
  ['an accounting negative', -1234.5, 'Net result: ($1,234.50)', usd],
  ['a loss written without a sign', -45, 'a net loss of $45 after tax', usd],
  ['a value rounded to its own precision', 9.43, 'Average: 9.4321', plain],
  ['a percentage as a fraction in a column without unit', 0.12, 'Occupancy was 12%.', plain],
  ['a compound duration', 150, 'Transfer: 2 hours 30 minutes', column('number', { unit: 'minutes' })],
  ['a count of listed items', 3, 'Languages spoken: English, French and German', count],
  ['a count of listed lines', 2, '- Outdoor pool\n- Indoor pool', count],
  ['a count of one after a label that names the attribute', 1, 'Languages: English', languages],
  ['a count of one on the line after its label', 1, 'Languages:\n- English', languages],
  ['a count of one after a label of the description\'s words', 1, 'Amenities: pool', amenities],
  ['a count of one with a limiting word before it', 1, 'Speaks only English.', languages],
  ['a count of one with a limiting word after it', 1, 'English only', languages],
  ['a date with the year', '1952-09-09', 'Opened: 9 September 1952', date],
  ['a date whose year the page gives elsewhere', '1954-07-04', 'from 16 June to 4 July', date],
  ['a date out of a range', '1930-07-30', 'from 13 to 30 July 1930', date],
  ['a date in month-first order', '1994-06-17', 'from June 17 to July 17, 1994', date],
  ['the second date of a month-first range', '1994-07-17', 'from June 17 to July 17, 1994', date],
  ['the second date of a day-first range', '2014-07-13', 'from 12 June to 13 July 2014', date],
  ['a numeric date in either order', '2021-03-05', 'Opened 03/05/2021', date],
  ['an ISO date', '2021-03-05', 'opened 2021-03-05T10:00', date],
  ['a date with an ordinal day', '2021-03-05', 'the 5th of March, 2021', date],
  ['a name as written', 'Acme Corp', 'Welcome to Acme Corp.', text],
  ['a name in another order', 'Camille Laurent', 'Manager: Laurent, Camille', text],
  ['a name without diacritics and case', 'Zurich', 'in the heart of ZÜRICH', text],
  ['a name losing an article', 'Grand Budapest Hotel', 'Welcome to The Grand Budapest Hotel', text],
  ['a compound spelled apart', 'CocaCola Company', 'The Coca-Cola Company', text],
  ['an initialism for its words', 'USA', 'Host country | United States of America', text],
  ['words for an initialism', 'United Kingdom', 'Based in the UK', text],
  ['a city out of an address', 'Paris', '198 Old Town Street, Paris, France', text],
  ['a boolean derived from a description', true, 'Guests can relax in the outdoor swimming pool.', flag],
  ['a negative boolean derived from a sentence', false, 'The hotel does not offer an airport shuttle.', flag],
  ['a boolean stated as yes', true, 'Swimming pool: Yes', flag],
  ['a boolean stated as no', false, 'Pets allowed: No (extra charge)', flag],
  ['a boolean stated by a mark', false, 'Parking | ✗', flag],
];

/** Values a model misreads while quoting the document truly: each must be refused. */
const refused: Array<[...Row, RegExp]> = [
  ['a number the quote does not state', 999999, 'Revenue 100', usd, /states 100 \("100"\), not 999999/],
  ['a digit dropped', 123, 'Rooms start at $1,234 per night.', usd, /not 123/],
  ['a magnitude word ignored', 5.1, 'Reviews: 5.1k', count, /5100/],
  ['a unit ignored', 2, 'Distance to center: 2 km', metres, /2000/],
  ['a scale missed', 1_200_000, 'Revenue was $1.2 million.', millionsOfUsd, /not 1200000/],
  ['another currency', 45, 'Price: €45 per night', usd, /in EUR but the column is in USD/],
  ['a sign dropped', 1234.5, 'Net result: ($1,234.50)', usd, /-1234.5/],
  ['a sign invented', -45, 'Revenue of $45', usd, /not -45/],
  ['a rounding too coarse', 9, 'Average: 9.4321', plain, /not 9/],
  ['no number at all', 5, 'The hotel is lovely.', count, /no number/],
  ['a wrong count of listed items', 4, 'Languages spoken: English, French and German', count, /not 4/],
  ['a count of one from a non-list', 1, 'Acme Corp', count, /no number/],
  ['a count of one after a label about something else', 1, 'CEO: Acme Corp', languages, /no number/],
  ['a count of one after a label followed by a sentence', 1, 'Languages: she learned them all at school in Lisbon', languages, /no number/],
  ['a count of two from a one-item list', 2, 'Languages: English', languages, /no number/],
  ['a count of one from a two-item list with a limiting word', 1, 'Speaks only English and French.', languages, /no number/],
  ['a day misread', '1930-07-14', 'from 13 to 30 July 1930', date, /no day 14 of month 7/],
  ['a month misread', '1952-10-09', 'Opened: 9 September 1952', date, /no day 9 of month 10/],
  ['a year misread', '1953-09-09', 'Opened: 9 September 1952', date, /no year 1953/],
  ['a day invented for a month', '1952-09-01', 'opened in September 1952', date, /no day 1 of month 9/],
  ['a day taken from another date of a range', '2014-06-13', 'from 12 June to 13 July 2014', date, /no day 13 of month 6/],
  ['a numeric date read in no possible order', '2021-05-04', 'Opened 03/05/2021', date, /no day 4 of month 5/],
  ['another name', 'Totally Different Corp', 'Acme Corp', text, /"totally", "different"/],
  ['a name with a word changed', 'Camille Durand', 'General manager: Camille Laurent', text, /"durand"/],
  ['a translated name', 'Lisbon', 'Hotel in Lisboa', text, /"lisbon"/],
  ['a boolean against an explicit yes', false, 'Swimming pool: Yes', flag, /"Yes", which is true/],
  ['a boolean against an explicit no', true, 'Pets allowed: no.', flag, /"no", which is false/],
];

describe('quoteStatesValue', () => {
  it.each(stated)('accepts %s', (_, value, quote, attribute) => {
    expect(quoteStatesValue(value, quote, attribute)).toBeNull();
  });

  it.each(refused)('refuses %s, saying why', (_, value, quote, attribute, reason) => {
    expect(quoteStatesValue(value, quote, attribute)).toMatch(reason);
  });

  it('reads an elided quote passage by passage, without its list markers', () => {
    expect(quoteStatesValue(100, 'Revenue … was 100', usd)).toBeNull();
    expect(quoteStatesValue(1, '1. Revenue … 100', usd)).toMatch(/not 1/);
    expect(quoteStatesValue(2, '- English … - French', count)).toBeNull();
  });
});

/** The first record value read from a reply of one attribute, evidence on, as an extraction reads it. */
function readOne(attribute: AttributeDefinition, documentText: string, value: unknown, quote: string) {
  const read = readRecordReply({ [attribute.name]: { value, quote } }, { schema: { title: 'Test', attributes: [attribute] }, documentText, withEvidence: true, strict: false });
  if (!('value' in read)) throw new Error(read.problems.join('; '));
  return read.value.evidence[0]!;
}

describe('an elided quote is read over the text it covers (issue 37, item 2)', () => {
  const title = column('string', { name: 'current_title', description: 'The job title of the current position.' });
  const salary = column('number', { name: 'expected_salary', description: 'The yearly salary the candidate asks for.', unit: 'USD' });
  const cv = 'Current role: Software Engineer at Northwind Traders.\nExpected compensation: 100.25 thousand dollars a year.\nLanguages: English, French and German';

  it('keeps a value whose words the elision left out, the passages in the document in order', () => {
    expect(readOne(title, cv, 'Software Engineer', 'Current role: Software … at Northwind Traders.').status).toBe('supported');
    expect(readOne(salary, cv, '100.25 thousand dollars', 'Expected compensation: 100.25 … dollars a year.')).toMatchObject({ status: 'supported', value: 100250 });
    expect(readOne(languages, cv, 3, 'Languages: English, … and German').status).toBe('supported');
  });

  it('still refuses a value the covered text does not state', () => {
    expect(readOne(title, cv, 'Senior Software Engineer', 'Current role: Software … at Northwind Traders.').reason).toMatch(/"senior"/);
    expect(readOne(salary, cv, '100.26 thousand dollars', 'Expected compensation: 100.25 … dollars a year.').status).toBe('unsupported');
    expect(readOne(languages, cv, 4, 'Languages: English, … and German').status).toBe('unsupported');
  });

  it('reads no further than the quote when it is not elided, nor over an elision longer than the bound', () => {
    expect(readOne(title, cv, 'Software Engineer', 'Current role: Software').status).toBe('unsupported');
    const far = `Current role: Software Engineer ${'at a company with a long name '.repeat(Math.ceil(longestElision / 25))}at Northwind Traders.`;
    expect(readOne(title, far, 'Software Engineer', 'Current role: Software … at Northwind Traders.').reason).toMatch(/does not occur|"engineer"/);
  });
});

