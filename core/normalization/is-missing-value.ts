import { isAscii } from '../text/is-ascii.ts';

/**
 * What documents and models write for "no value": compared after trimming, lower-casing, collapsing
 * whitespace and dropping a trailing full stop.
 */
const missingMarkers = new Set([
  '', 'n/a', 'na', 'n.a', 'n.a.', 'none', 'null', 'nil', 'nan', 'undefined', 'unknown', 'not known',
  'not stated', 'not specified', 'unspecified', 'not available', 'not applicable', 'not given',
  'not mentioned', 'not provided', 'not listed', 'not found', 'no data', 'no information', 'no info',
  'tbd', 'tba', '-', '--', '---', '—', '–', '?', '??', '???', '...', '…',
]);

const anyDigit = /\d/;
const whitespaceRun = /\s+/g;
const spacedSlash = /\s*\/\s*/g;
const stopAfterLetter = /(?<=[a-z])\.$/;

/**
 * True for null, undefined and the strings above ("N/A", "none", "not stated", "—", "?" …). Such a
 * value becomes null without an issue: the document simply does not say.
 *
 * Kind-independent on purpose. A boolean column reads its negative words ("none", "not available")
 * as false *before* asking this, so there "none" means false; in every other column it is missing.
 */
export function isMissingValue(raw: unknown): boolean {
  if (raw === null || raw === undefined) return true;
  if (typeof raw !== 'string') return false;
  // No marker has a digit, and folding keeps every ASCII digit: "$108" is read, not looked up.
  if (anyDigit.test(raw)) return false;
  if (isAscii(raw) && !mayStartMarker(raw)) return false;
  const folded = (isAscii(raw) ? raw : raw.normalize('NFKC'))
    .trim()
    .toLowerCase()
    .replace(whitespaceRun, ' ')
    .replace(spacedSlash, '/')
    .replace(stopAfterLetter, '');
  return missingMarkers.has(folded);
}

/**
 * Whether an ASCII text's first character other than whitespace can start a marker (lower-cased:
 * "n", "u", "t", "-", "?", "."), or there is none: folding keeps that character first, so any other
 * text ("Opal Square Hotel 1", "Barcelona") is no marker, and is not folded to be looked up.
 */
function mayStartMarker(raw: string): boolean {
  for (let index = 0; index < raw.length; index += 1) {
    const code = raw.charCodeAt(index);
    if (code === 32 || (code >= 9 && code <= 13)) continue;
    return markerStarts.includes(String.fromCharCode(code | (code >= 65 && code <= 90 ? 32 : 0)));
  }
  return true;
}

const markerStarts = [...new Set([...missingMarkers].map((marker) => marker[0]).filter((first) => first !== undefined))].join('');
