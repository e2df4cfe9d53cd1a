import { isAscii } from '../text/is-ascii.ts';

/** Words and signs around a number that make it approximate or a bound, but still that number. */
const leadingHedge =
  /^(?:approx(?:imately|\.)?|about|around|roughly|circa|ca\.|c\.|nearly|almost|some|over|more than|at least|up to|est(?:imated|\.)?|~|≈|>=?|≥)\s*/;
const trailingHedge = /\s*(?:\+|\(?(?:approx(?:imately|\.)?|est(?:imated|\.)?)\)?|or so|or more|ish)$/;

/** Patterns made once, not per text (global ones only for `replace`). */
const dashBeforeDigit = /[\u2212\u2012\u2013](?=\s*\d)/g;
const whitespaceRun = /\s+/g;
const trailingMarks = /[.,;:]+$/;

/**
 * Fold a numeric text to one spelling: NFKC (so "m²" is "m2" and no-break spaces are spaces),
 * lower case, ASCII minus, single spaces, no trailing full stop, and without hedges such as
 * "approx.", "about", "~", "at least", "up to" or a trailing "+": "45+" and "about 45" both read as
 * 45. Upper bounds that are not maxima ("under", "less than") are kept, and so fail to parse.
 */
export function tidyNumberText(written: string): string {
  // NFKC and the dashes change nothing in an ASCII text, the usual one.
  let text = (isAscii(written) ? written.toLowerCase() : written.normalize('NFKC').toLowerCase().replace(dashBeforeDigit, '-'))
    .replace(whitespaceRun, ' ')
    .trim()
    .replace(trailingMarks, '');
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(leadingHedge, '').replace(trailingHedge, '').trim();
  }
  return text;
}
