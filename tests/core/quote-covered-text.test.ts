import { describe, expect, it } from 'vitest';
import { longestCoveredText, quoteCoveredText } from '../../core/extraction/quote-covered-text.ts';

const cv = 'Name: Ada Park.\nCurrent role: Software Engineer at Northwind Traders.\nExpected compensation: 100,250 dollars a year.';

describe('the text an elided quote covers', () => {
  it('is the document\'s own text from the first passage to the last, whatever the case, punctuation and spacing of the quote', () => {
    expect(quoteCoveredText(cv, 'Current role: Software … at Northwind Traders.')).toBe('Current role: Software Engineer at Northwind Traders');
    expect(quoteCoveredText(cv, 'CURRENT ROLE software ... northwind traders')).toBe('Current role: Software Engineer at Northwind Traders');
    expect(quoteCoveredText(cv, 'Expected compensation: 100 ... dollars a year.')).toBe('Expected compensation: 100,250 dollars a year');
  });

  it('lets a passage start inside a word and end inside one, as a cut quote does', () => {
    expect(quoteCoveredText(cv, 'ware Engin … Northwind')).toBe('ware Engineer at Northwind');
  });

  it('is undefined for one passage, passages out of order, or a span longer than a passage may be', () => {
    expect(quoteCoveredText(cv, 'Current role: Software Engineer')).toBeUndefined();
    expect(quoteCoveredText(cv, 'Northwind Traders … Current role')).toBeUndefined();
    const far = `Revenue for the year ${'and more words '.repeat(Math.ceil(longestCoveredText / 15))} was 42 million.`;
    expect(quoteCoveredText(far, 'Revenue for the year … was 42 million')).toBeUndefined();
  });

  it('tries a later place of the first passage when the rest does not follow the first one', () => {
    const text = `Price: see below.\n${'filler text '.repeat(80)}\nPrice: 470 USD per night.`;
    expect(quoteCoveredText(text, 'Price: … USD per night')).toBe('Price: 470 USD per night');
  });

  it('reads each document as its own, when quotes of two documents come in turn', () => {
    const other = 'Current role: Data Analyst at Contoso.';
    expect(quoteCoveredText(cv, 'Current role: … Northwind Traders')).toBe('Current role: Software Engineer at Northwind Traders');
    expect(quoteCoveredText(other, 'Current role: … Contoso')).toBe('Current role: Data Analyst at Contoso');
    expect(quoteCoveredText(other, 'Current role: … Northwind Traders')).toBeUndefined();
    expect(quoteCoveredText(cv, 'Current role: … Northwind Traders')).toBe('Current role: Software Engineer at Northwind Traders');
  });
});
