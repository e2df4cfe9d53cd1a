import { singularNoun } from '../schema/singular-noun.ts';

/**
 * Irregular forms that belong to one word for the purpose of telling what a sentence is about:
 * "born" is said of a birth, "paid" of pay. General English, not any domain's words.
 */
const irregularForms: Readonly<Record<string, string>> = {
  born: 'birth', paid: 'pay', sold: 'sale', sell: 'sale', sells: 'sale', won: 'win', lost: 'loss', lose: 'loss',
  spent: 'spend', grew: 'grow', grown: 'grow', growth: 'grow', built: 'build', held: 'hold', ran: 'run', made: 'make',
  bought: 'buy', kept: 'keep', met: 'meet', taught: 'teach', wrote: 'write', written: 'write', flown: 'fly', flew: 'fly',
};

/**
 * A lower-case word reduced to the form its variants share, so that "rooms", "nightly", "scored"
 * and "employees" meet "room", "night", "score" and "employee": a plural made singular, then one
 * of "-ing", "-ed", "-ly" removed, then a final "e". Light on purpose: words must still tell
 * things apart ("star" is not "start"); see `stemsMatch` for longer words that differ in ending.
 */
export function wordStem(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    // Bounded: a document's words are few, but a million documents' are not.
    if (stems.size >= 20_000) stems.clear();
    stems.set(word, (stem = stemOf(word)));
  }
  return stem;
}

/** Stems already computed: the same words are judged for every value of every document. */
const stems = new Map<string, string>();

function stemOf(word: string): string {
  const irregular = Object.hasOwn(irregularForms, word) ? irregularForms[word] : undefined;
  if (irregular) return irregular;
  let stem = word.length > 3 ? singularNoun(word) : word;
  if (stem.length > 5 && stem.endsWith('ing')) stem = stem.slice(0, -3);
  else if (stem.length > 4 && stem.endsWith('ed')) stem = stem.slice(0, -2);
  else if (stem.length > 4 && stem.endsWith('ly')) stem = stem.slice(0, -2);
  if (stem.length > 3 && stem.endsWith('e')) stem = stem.slice(0, -1);
  return stem;
}

/** The stem and the irregular forms that share it ("birth": birth, born), to find a word by its forms. */
export function stemForms(stem: string): string[] {
  return [stem, ...Object.keys(irregularForms).filter((form) => irregularForms[form] === stem)];
}

/**
 * Whether two stems are one word's: equal, or the shorter, of six letters or more, begins the
 * longer, which has at most four more ("attend" / "attendanc", "employ" / "employe").
 */
export function stemsMatch(left: string, right: string): boolean {
  if (left === right) return true;
  const [shorter, longer] = left.length <= right.length ? [left, right] : [right, left];
  return shorter.length >= 6 && longer.length - shorter.length <= 4 && longer.startsWith(shorter);
}
