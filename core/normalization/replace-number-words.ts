// Maps, not object literals: "constructor" must not be found on a prototype.
const ones = new Map(Object.entries({
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19,
}));
const tens = new Map(Object.entries({
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
}));
/** Words after which "a" means one: "a dozen", "a hundred", "a million". */
const countedByA = new Set(['dozen', 'hundred', 'thousand', 'million', 'billion']);

/** A word and what follows it: spaces or hyphens, or nothing before a character that is no letter. */
const wordPattern = /^([a-z]+)([\s-]+|(?![a-z]))/;
const leadingLetters = /^[a-z]+/;

type Previous = 'start' | 'one' | 'ten' | 'hundred' | 'and';

/**
 * Whether a number phrase `replaceNumberWords` reads can start with the word of `text` from
 * `start` to `end` (lower case): most words cannot, and are passed over without trying. Compared in
 * place: cutting each word out to ask was a string per word.
 */
export function mayStartNumberWordsAt(text: string, start: number, end: number): boolean {
  const candidates = wordsByInitial.get(text.charCodeAt(start));
  if (candidates === undefined) return false;
  for (let index = 0; index < candidates.length; index += 1) {
    const word = candidates[index]!;
    if (word.length === end - start && text.startsWith(word, start)) return true;
  }
  return false;
}

/** The words a number phrase can start with ("one", "twenty", "a"), by the code of their first letter. */
const wordsByInitial = new Map<number, string[]>();
for (const word of [...ones.keys(), ...tens.keys(), 'a']) {
  const list = wordsByInitial.get(word.charCodeAt(0)) ?? [];
  list.push(word);
  wordsByInitial.set(word.charCodeAt(0), list);
}

/**
 * Replace a leading English number phrase below a thousand ("twelve", "twenty-five", "a dozen",
 * "two hundred and five") with its digits, so "twelve km" reads as "12 km". "thousand", "million"
 * and the like are left in place for the magnitude reader: "a million" becomes "1 million".
 * Text that does not start with such a phrase is returned unchanged.
 */
export function replaceNumberWords(text: string): string {
  let position = 0;
  let consumedTo = 0;
  let value = 0;
  let previous: Previous = 'start';
  for (;;) {
    const match = wordPattern.exec(text.slice(position));
    if (!match) break;
    const [whole, word = ''] = match;
    const next = leadingLetters.exec(text.slice(position + whole.length))?.[0] ?? '';
    if (word === 'a' && previous === 'start' && countedByA.has(next)) value = 1;
    else if (ones.has(word) && (previous === 'start' || previous === 'hundred' || previous === 'and' || (previous === 'ten' && (ones.get(word) ?? 10) < 10))) value += ones.get(word) ?? 0;
    else if (tens.has(word) && (previous === 'start' || previous === 'hundred' || previous === 'and')) value += tens.get(word) ?? 0;
    else if (word === 'hundred' && previous === 'one') value *= 100;
    else if (word === 'dozen' && previous === 'one') value *= 12;
    else if (word === 'and' && previous === 'hundred' && (ones.has(next) || tens.has(next))) {
      previous = 'and';
      position += whole.length;
      continue;
    } else break;
    previous = tens.has(word) ? 'ten' : word === 'hundred' || word === 'dozen' ? 'hundred' : 'one';
    position += whole.length;
    consumedTo = position - (whole.length - word.length);
  }
  if (consumedTo === 0) return text;
  return `${value}${text.slice(consumedTo)}`;
}
