/**
 * Words that say nothing of what a number is about: articles, pronouns, prepositions, conjunctions,
 * auxiliaries and common adverbs, the words any quantity goes with ("number", "total", "amount"),
 * and those that say how a measure is taken or how often ("5 km away", "$90,000 annually"). A
 * sentence's other words are what it speaks of. General English, not a domain's list.
 */
const words = new Set(`
a an the this that these those it its it's they them their there here we our us you your he she his her i my me
of in on at by for to from with within without into onto over under about above below between among across through
during before after since until till per via as than then so such
and or nor but if whether while because though although also only just even still yet both either neither not no
is are was were be been being am has have had having do does did done will would shall should can could may might must
which who whom whose what when where why how all any each every some most more less much many few several other another
up down out off again further very too quite rather around approximately approx about nearly almost roughly some
number numbers total totals count counts amount amounts value values num nr quantity figure figures sum
away ago apart long old high wide deep tall annually yearly monthly weekly daily hourly
`.split(/\s+/).filter(Boolean));

/** Whether `word` (lower case) is a function word or a word of quantity in general (see above). */
export function isFunctionWord(word: string): boolean {
  return words.has(word);
}
