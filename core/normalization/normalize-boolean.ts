import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { acceptedValue } from './accepted-value.ts';
import type { NormalizationResult } from './normalization-result.ts';
import { isMissingValue } from './is-missing-value.ts';
import { rejectValue } from './reject-value.ts';
import { isAscii } from '../text/is-ascii.ts';
import { singleSpaced } from '../text/single-spaced.ts';

const trueWords = new Set([
  'true', 'yes', 'y', '1', 'on', 'available', 'included', 'free', 'present', 'provided', 'offered',
  'supported', 'allowed', 'permitted', '✓', '✔', '☑',
]);
const falseWords = new Set([
  'false', 'no', 'n', '0', 'off', 'none', 'not available', 'unavailable', 'not included', 'excluded',
  'absent', 'not provided', 'not offered', 'not supported', 'not allowed', 'not permitted', '✗', '✘', '☐',
]);

const trailingStops = /[.!]+$/;
const leadingYesOrNo = /^(yes|no)\s*[,;:(–—-]/;

/** The refusal of a value that is no yes or no (a function, not a closure made for every value read). */
function refuse(attribute: AttributeDefinition, raw: unknown): NormalizationResult {
  return rejectValue(attribute, 'not_a_boolean', raw, 'true or false (yes/no)', 'is not a yes or no');
}

/**
 * Normalize a value for a `boolean` column. Negative words are read before missing markers, so
 * "none" and "not available" are false here although they are missing elsewhere; markers that say
 * nothing ("N/A", "unknown", "—") stay missing. A leading "yes"/"no" followed by punctuation counts
 * ("Yes, on request", "No (extra charge)"); "no idea" and "maybe" do not.
 */
export function normalizeBoolean(raw: unknown, attribute: AttributeDefinition): NormalizationResult {
  if (typeof raw === 'boolean') return acceptedValue(raw);
  if (typeof raw === 'number') return raw === 1 ? acceptedValue(true) : raw === 0 ? acceptedValue(false) : refuse(attribute, raw);
  if (typeof raw !== 'string') return raw === null || raw === undefined ? acceptedValue(null) : refuse(attribute, raw);
  const folded = singleSpaced((isAscii(raw) ? raw : raw.normalize('NFKC')).trim().toLowerCase()).replace(trailingStops, '');
  if (trueWords.has(folded)) return acceptedValue(true);
  if (falseWords.has(folded)) return acceptedValue(false);
  const leading = leadingYesOrNo.exec(folded)?.[1];
  if (leading) return acceptedValue(leading === 'yes');
  return isMissingValue(raw) ? acceptedValue(null) : refuse(attribute, raw);
}
