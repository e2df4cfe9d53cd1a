/** Aliases by their first character (case as written), longest first: what `matchLeadingAlias` looks through. */
type AliasIndex = Map<string, string[]>;

/** Each list of aliases is indexed once: a quote's numbers are read many times per record, and looking through every unit and currency spelling for each was most of the reading. */
const indexes = new WeakMap<readonly string[], AliasIndex>();

function aliasIndex(aliases: readonly string[]): AliasIndex {
  let index = indexes.get(aliases);
  if (!index) {
    index = new Map();
    for (const alias of aliases) {
      const first = alias.charAt(0);
      const list = index.get(first) ?? [];
      list.push(alias);
      index.set(first, list);
    }
    for (const list of index.values()) list.sort((left, right) => right.length - left.length);
    indexes.set(aliases, index);
  }
  return index;
}

const noAliases: readonly string[] = [];

/** Patterns made once, not per alias tried. */
const endsInLetter = /\p{L}$/u;
const isLetter = /\p{L}/u;
const endsInDigit = /\d$/;
const isLetterOrDigit = /[\p{L}\d]/u;

/**
 * The longest of `aliases` that starts `text` and does not run on into a letter, so "km" is not read
 * as "k" then "m" and "stars" is not read as "s". An alias ending in a digit ("m2") must not run on
 * into another digit either. Leading spaces of `text` are skipped; `rest` is what follows the alias.
 * `aliases` is a list the caller keeps (it is indexed once, by identity).
 */
export function matchLeadingAlias(
  text: string,
  aliases: readonly string[],
): { alias: string; rest: string } | undefined {
  const trimmed = text.trimStart();
  // Longest first: the first that fits is the longest; among equally long ones, the earliest listed.
  // Read inside the text only (charAt past its end is '' too, but sent the optimized function back to the interpreter).
  const candidates = aliasIndex(aliases).get(trimmed.length > 0 ? trimmed[0]! : '') ?? noAliases;
  // An index loop, not for…of: an iterator step allocates in V8's interpreter and baseline code.
  for (let index = 0; index < candidates.length; index += 1) {
    const alias = candidates[index]!;
    if (!trimmed.startsWith(alias)) continue;
    const following = alias.length < trimmed.length ? trimmed[alias.length]! : '';
    if (endsInLetter.test(alias) && isLetter.test(following)) continue;
    if (endsInDigit.test(alias) && isLetterOrDigit.test(following)) continue;
    return { alias, rest: trimmed.slice(alias.length) };
  }
  return undefined;
}
