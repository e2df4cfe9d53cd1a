import { describe, expect, it } from 'vitest';
import { readRecordReply } from '../../core/extraction/read-record-reply.ts';
import type { AttributeEvidence } from '../../core/extraction/record-issue.ts';
import type { AttributeDefinition } from '../../core/schema/attribute-definition.ts';

/**
 * Issue 37, item 1: a number must be about its attribute, not only equal to a number of its quote.
 * Each case is read as an extraction reads a reply (`readRecordReply`, evidence on), with the
 * attribute defined as a model predicts one, against a small document of its domain. Both
 * directions: the number a model takes from a sentence about something else is refused with a
 * reason that names what the sentence is about; true values, with terse quotes too, are kept.
 */

const attribute = (name: string, kind: AttributeDefinition['kind'], description: string, extra: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  name, kind, description, examples: [], ...extra,
});

const yearsOfExperience = attribute('years_of_experience', 'number', 'Total years of professional work experience the candidate states.', { unit: 'years' });
const expectedSalary = attribute('expected_salary', 'number', 'The yearly salary the candidate asks for, in US dollars.', { unit: 'USD' });
const birthYear = attribute('birth_year', 'integer', 'The year the candidate was born, as four digits.');
const cv = [
  '# Ana Silva',
  'Backend engineer with 11 years of experience in payments.',
  '- Led a team of 7 engineers through a migration.',
  '- Managed a project budget of $2.3M across three countries.',
  'Expected salary: $95,000',
  'Born: 1988',
  'Has run marathons since 2019.',
].join('\n');

const pricePerNight = attribute('price_per_night', 'number', 'The price of one night in a standard double room, in US dollars.', { unit: 'USD' });
const totalRooms = attribute('total_rooms', 'integer', 'The number of guest rooms the hotel has.');
const hotel = [
  '# Harbour House',
  'The hotel has 120 rooms. There are 3 meeting rooms for up to 80 guests.',
  'A refundable deposit of $150 is held at check-in. Parking costs $25 per day.',
  '- Price per night: USD 470.00',
].join('\n');

const revenue = attribute('revenue', 'number', 'Total revenue of the company for the fiscal year the report covers, in millions of US dollars.', { unit: 'USD', scale: 1e6 });
const filing = [
  '# Apex Systems',
  'Annual Report for the fiscal year ended December 31, 2023',
  'Total revenue for fiscal 2023 was $5,210 million, compared with $4,650 million in fiscal 2022.',
  'Revenue from the Cloud segment was $1,870 million.',
  'In fiscal 2022, revenue was $4,650 million.',
  'Operating expenses were $3,100 million.',
  'Net income was $610 million, against $540 million in the prior year.',
].join('\n');
const netIncome = attribute('net_income', 'number', 'Net income for the fiscal year, in millions of US dollars.', { unit: 'USD', scale: 1e6 });

const goalsScored = attribute('goals_scored', 'integer', 'The total number of goals scored over all matches.');
const attendance = attribute('attendance', 'integer', 'The total number of spectators over all matches. The total, not the per-match average.');
const venues = attribute('number_of_venues', 'integer', 'The number of stadiums the matches were played in. Not the number of host cities.');
const tournament = [
  '# Coastal Cup 2019',
  'Matches played | 48',
  'Goals scored | 136 (2.83 per match)',
  'Attendance | 1,250,300 (26,048 per match)',
  'Venue(s) | 8 (in 6 host cities)',
  'Rovers beat City 2–1 in the final in front of a crowd of 68,346.',
].join('\n');

function evidenceOf(definition: AttributeDefinition, documentText: string, value: unknown, quote: string): AttributeEvidence {
  const read = readRecordReply({ [definition.name]: { value, quote } }, { schema: { title: 'Test', attributes: [definition] }, documentText, withEvidence: true, strict: false });
  if (!('value' in read)) throw new Error(read.problems.join('; '));
  return read.value.evidence[0]!;
}

type Case = [string, AttributeDefinition, string, unknown, string];

/** A number the document states about something else, as a model answers the attribute with it. */
const decoys: Array<[...Case, RegExp]> = [
  ['a team size as years of experience', yearsOfExperience, cv, 7, 'Led a team of 7 engineers through a migration.', /counts "engineers"/],
  ['a project budget as the expected salary', expectedSalary, cv, '$2.3M', 'Managed a project budget of $2.3M across three countries.', /speaks of "managed project budget".*expected salary \$ 95,000/],
  ['the year a hobby began as the year of birth', birthYear, cv, 2019, 'Has run marathons since 2019.', /speaks of "run marathons".*born 1988/],
  ['a count of rooms as a price', pricePerNight, hotel, 120, 'The hotel has 120 rooms.', /counts "rooms", not an amount in USD/],
  ['a deposit as the price per night', pricePerNight, hotel, '$150', 'A refundable deposit of $150 is held at check-in.', /speaks of "refundable deposit"/],
  ['a price per day as the price per night', pricePerNight, hotel, '$25', 'Parking costs $25 per day.', /per day, not per night/],
  ['meeting rooms as the hotel\'s rooms', totalRooms, hotel, 3, 'There are 3 meeting rooms for up to 80 guests.', /elsewhere, more plainly \("the hotel has 120 rooms"\)/],
  ['a segment\'s revenue as the company\'s', revenue, filing, '$1,870 million', 'Revenue from the Cloud segment was $1,870 million.', /elsewhere, more plainly/],
  ['last year\'s revenue in a comparison', revenue, filing, '$4,650 million', 'compared with $4,650 million in fiscal 2022', /compared with/],
  ['last year\'s revenue in a sentence of its own', revenue, filing, '$4,650 million', 'In fiscal 2022, revenue was $4,650 million.', /for 2022, and the document states one for 2023/],
  ['operating expenses as revenue', revenue, filing, '$3,100 million', 'Operating expenses were $3,100 million.', /speaks of "operating expenses"/],
  ['the prior year\'s figure as this year\'s', netIncome, filing, '$540 million', '$540 million in the prior year', /compared with/],
  ['matches played as goals scored', goalsScored, tournament, 48, 'Matches played | 48', /speaks of "matches played"/],
  ['the per-match average as the attendance', attendance, tournament, '26,048', 'Attendance | 1,250,300 (26,048 per match)', /per match, which the description of attendance excludes/],
  ['host cities as venues', venues, tournament, 6, 'Venue(s) | 8 (in 6 host cities)', /"host", which the description of number_of_venues excludes/],
  ['the final\'s crowd as the attendance', attendance, tournament, '68,346', 'in front of a crowd of 68,346', /speaks of "front crowd"/],
];

/** True values, with their quotes as models give them: whole, terse, or a label away from the number. */
const trueValues: Case[] = [
  ['years of experience in a sentence', yearsOfExperience, cv, 11, 'Backend engineer with 11 years of experience in payments.'],
  ['years of experience quoted tersely', yearsOfExperience, cv, 11, '11 years'],
  ['years of experience abbreviated and quoted tersely', yearsOfExperience, '- Experience: 11 yrs\n- Led a team of 7 engineers.', 11, '11 yrs'],
  ['a salary as labelled', expectedSalary, cv, '$95,000', 'Expected salary: $95,000'],
  ['a salary quoted tersely', expectedSalary, cv, '$95,000', '$95,000'],
  ['a year of birth', birthYear, cv, 1988, 'Born: 1988'],
  ['a year of birth quoted tersely', birthYear, cv, 1988, '1988'],
  ['a price quoted tersely', pricePerNight, hotel, 'USD 470.00', 'USD 470.00'],
  ['a count of rooms', totalRooms, hotel, 120, 'The hotel has 120 rooms.'],
  ['this year\'s revenue beside last year\'s', revenue, filing, '$5,210 million', 'Total revenue for fiscal 2023 was $5,210 million, compared with $4,650 million in fiscal 2022.'],
  ['this year\'s net income beside the prior year\'s', netIncome, filing, '$610 million', 'Net income was $610 million'],
  ['years of experience followed by the last of them', yearsOfExperience, 'Over 11 years in software with the last three at Contoso.', 11, 'Over 11 years in software with the last three at Contoso.'],
  ['goals scored beside their average', goalsScored, tournament, 136, 'Goals scored | 136 (2.83 per match)'],
  ['an attendance quoted tersely', attendance, tournament, '1,250,300', '1,250,300'],
  ['venues beside host cities', venues, tournament, 8, 'Venue(s) | 8 (in 6 host cities)'],
];

describe('a number must be about its attribute (issue 37, item 1)', () => {
  it.each(decoys)('refuses %s, naming what its sentence is about', (_, definition, documentText, value, quote, reason) => {
    const evidence = evidenceOf(definition, documentText, value, quote);
    expect(evidence.status, evidence.reason ?? '').toBe('unsupported');
    expect(evidence.value).toBeNull();
    expect(evidence.reason).toMatch(reason);
    expect(evidence.reason).not.toContain('\n');
  });

  it.each(trueValues)('keeps %s', (_, definition, documentText, value, quote) => {
    const evidence = evidenceOf(definition, documentText, value, quote);
    expect(evidence.reason).toBeNull();
    expect(evidence.status).toBe('supported');
  });

  it('keeps a number whose sentence names nothing when the document states the attribute nowhere else', () => {
    const text = 'Candidate profile\nDesired compensation: $150,250 annually\nManaged a project budget of $2.3M.';
    expect(evidenceOf(expectedSalary, text, '$150,250', 'Desired compensation: $150,250 annually').status).toBe('supported');
    // The same decoy is kept too: with nothing better stated, the check cannot tell (a NULL would lose true values).
    expect(evidenceOf(expectedSalary, text, '$2.3M', 'Managed a project budget of $2.3M.').status).toBe('supported');
  });

  it('does not judge an attribute whose name says nothing of what it is', () => {
    const value = attribute('value', 'integer', 'a test column');
    expect(evidenceOf(value, cv, 7, 'Led a team of 7 engineers through a migration.').status).toBe('supported');
  });
});
