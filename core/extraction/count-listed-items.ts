import type { AttributeDefinition } from '../schema/attribute-definition.ts';
import { attributeVocabulary, wordRole } from './attribute-vocabulary.ts';

/** What separates the items of a list written in prose or as lines. */
const itemSeparator = /\s*(?:[,;\n•·]|\band\b|\bor\b|&)\s*/i;

/** A word that limits what follows or precedes it to itself: "speaks only English", "English only". */
const limitingWord = /\b(?:only|solely|exclusively|just)\b/i;

/** The most words one item of a list may have; a label followed by a sentence is not a one-item list. */
const mostWordsInItem = 4;

/**
 * How many items a quote lists, for a count derived from a list ("Languages: English, French and
 * German" lists 3): the text after a leading label ("…:" or "…|") split at commas, semicolons,
 * "and", "or", "&", bullets and line breaks, counting parts with a letter. A list of one item
 * counts 1 only where the quote says it is the whole list: after a label that names the attribute
 * ("Languages: English" for `num_languages`, "Amenities: pool"), or with a limiting word ("Speaks
 * only English", "English only"). Undefined otherwise: a count of one must be stated, not guessed
 * from a name ("Acme Corp" is not one of anything).
 */
export function countListedItems(quote: string, attribute?: AttributeDefinition): number | undefined {
  const label = /^([^:|\n]*)[:|]\s*(?=\S)/.exec(quote);
  const body = label ? quote.slice(label[0].length) : quote;
  const items = body
    .replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/gm, '')
    .split(itemSeparator)
    .filter((item) => /\p{L}/u.test(item));
  if (items.length >= 2) return items.length;
  if (items.length !== 1 || /\d/.test(items[0]!)) return undefined;
  const itemWords = items[0]!.trim().replace(/[.!]+$/, '').split(/\s+/);
  if (limitingWord.test(items[0]!) && itemWords.length <= mostWordsInItem + 1) return 1;
  if (label && attribute && itemWords.length <= mostWordsInItem && labelNamesAttribute(label[1]!, attribute)) return 1;
  return undefined;
}

/** Whether a label uses a word of the attribute's name or description ("Languages" for `num_languages`). */
function labelNamesAttribute(label: string, attribute: AttributeDefinition): boolean {
  const vocabulary = attributeVocabulary(attribute);
  return (label.toLowerCase().match(/\p{L}+/gu) ?? []).some((word) => {
    const role = wordRole(vocabulary, word);
    return role === 'strong' || role === 'weak';
  });
}
